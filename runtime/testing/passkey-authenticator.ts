/**
 * A software passkey for tests (docs/testing.md "Passkeys"): an ES256
 * authenticator that answers WebAuthn options the way a browser and its
 * authenticator would — `none` attestation, a discoverable credential with
 * a user handle, a signature counter — so passkey registration and sign-in
 * can be tested over HTTP without a browser. It can also misbehave on
 * purpose (another origin, a counter going backwards, no user verification).
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/** The options of `navigator.credentials.create()` as JSON (what `passkeys.options` answers). */
export interface CreationOptionsJSON {
  readonly challenge: string;
  readonly rp: { readonly id?: string; readonly name: string };
  readonly user: { readonly id: string; readonly name: string; readonly displayName: string };
}

/** The options of `navigator.credentials.get()` as JSON (what `passkeys.loginOptions` answers). */
export interface RequestOptionsJSON {
  readonly challenge: string;
  readonly rpId?: string;
}

/** How one response may be bent (to test refusals). */
export interface ResponseOverrides {
  /** The origin written in clientDataJSON (default the authenticator's). */
  readonly origin?: string;
  /** The signature counter to report instead of the next one. */
  readonly counter?: number;
  /** `false`: the authenticator reports the user present but not verified (no PIN or biometric; the UV flag clear). Default true. */
  readonly userVerified?: boolean;
}

const b64url = (bytes: Uint8Array | Buffer): string => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string): Buffer => createHash('sha256').update(data).digest();

/**
 * One credential of a software authenticator.
 *
 * @example
 *   const key = new TestPasskey('http://localhost:3000');
 *   const credential = key.create(await browser.request('passkeys.options').then((r) => r.body));
 *   await browser.request('passkeys.store', { credential });
 */
export class TestPasskey {
  /** The origin the responses are made for (the app's `APP_URL` origin). */
  readonly origin: string;
  /** The credential ID (base64url), once created. */
  id: string | undefined;
  /** The user handle the site gave at creation (base64url). */
  userHandle: string | undefined;
  /** The signature counter of the last response. */
  counter = 0;
  readonly #key: { privateKey: KeyObject; publicKey: KeyObject };
  #rpId: string | undefined;

  /** @param origin the site's origin, e.g. `new URL(APP_URL).origin`. */
  constructor(origin: string) {
    this.origin = origin;
    this.#key = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  }

  /** Answer creation options: a new credential (`RegistrationResponseJSON`). */
  create(options: CreationOptionsJSON, overrides: ResponseOverrides = {}): Record<string, unknown> {
    const rpId = options.rp.id ?? new URL(this.origin).hostname;
    const credentialId = randomBytes(16);
    this.id = b64url(credentialId);
    this.userHandle = options.user.id;
    this.#rpId = rpId;
    const jwk = this.#key.publicKey.export({ format: 'jwk' });
    const cose = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, new Uint8Array(Buffer.from(jwk.x!, 'base64url'))],
        [-3, new Uint8Array(Buffer.from(jwk.y!, 'base64url'))],
      ]),
    );
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credentialId.length);
    const authData = Buffer.concat([
      this.#header(rpId, overrides.userVerified === false ? 0x41 : 0x45, overrides.counter ?? 0),
      Buffer.alloc(16),
      idLength,
      credentialId,
      Buffer.from(cose),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', new Uint8Array(authData)],
      ]) as never,
    );
    const clientDataJSON = this.#clientData('webauthn.create', options.challenge, overrides.origin);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: { clientDataJSON: b64url(clientDataJSON), attestationObject: b64url(attestationObject), transports: ['internal'] },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /**
   * Answer request options with this credential (`AuthenticationResponseJSON`,
   * usernameless: it carries the user handle). The counter goes up by one
   * unless `overrides.counter` says otherwise.
   * @throws {Error} before {@link create}.
   */
  get(options: RequestOptionsJSON, overrides: ResponseOverrides = {}): Record<string, unknown> {
    if (this.id === undefined) throw new Error('TestPasskey: create() the credential before signing in with it.');
    const rpId = options.rpId ?? this.#rpId ?? new URL(this.origin).hostname;
    const counter = overrides.counter ?? this.counter + 1;
    this.counter = counter;
    // Flags: user present (0x01), user verified (0x04) unless told otherwise.
    const authData = this.#header(rpId, overrides.userVerified === false ? 0x01 : 0x05, counter);
    const clientDataJSON = this.#clientData('webauthn.get', options.challenge, overrides.origin);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), this.#key.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        ...(this.userHandle === undefined ? {} : { userHandle: this.userHandle }),
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** rpIdHash, flags, signCount. */
  #header(rpId: string, flags: number, counter: number): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count]);
  }

  #clientData(type: string, challenge: string, origin: string = this.origin): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }
}
