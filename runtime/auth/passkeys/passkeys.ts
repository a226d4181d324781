/**
 * Passkeys (WebAuthn) through @simplewebauthn/server (docs/auth.md
 * "Passkeys"): registering one or more per account, usernameless sign-in,
 * removing one. The relying party is `APP_URL`: its host name is the RP ID,
 * its origin the only origin accepted.
 */
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { HttpError } from '../../errors/http-error.js';
import { NotFoundError } from '../../errors/not-found-error.js';
import { VALIDATION_DETAIL } from '../../errors/validation-error.js';
import type { RequestContext } from '../../http/context.js';
import type { AuthService } from '../auth-service.js';
import { recordAccountEvent } from '../account/account-audit.js';
import type { PasskeyStore } from './passkey-store.js';

/** Session key of the challenge waiting for its response (single use). */
export const CHALLENGE_KEY = 'auth.passkey_challenge';
/** How long a challenge waits (ms); also the browser's timeout. */
export const CHALLENGE_TTL_MS = 300_000;

/** A passkey as `GET /user/passkeys` answers it. */
export interface PasskeyInfo {
  readonly id: string;
  readonly name: string;
  readonly created_at: string;
  readonly last_used_at: string | null;
  /** `singleDevice` or `multiDevice` (synced). */
  readonly device_type: string;
  readonly backed_up: boolean;
}

/** What {@link Passkeys} is built from (the `passkeys()` step). */
export interface PasskeysOptions {
  readonly auth: AuthService;
  readonly store: PasskeyStore;
  /** The relying party's name shown by authenticators (the app's name). */
  readonly rpName: string;
  /** `APP_URL`'s host name. */
  readonly rpId: string;
  /** `APP_URL`'s origin. */
  readonly origin: string;
  /**
   * Require user verification (a PIN or biometric on the authenticator, the
   * UV flag) at sign-in and registration; `false` only asks for it
   * (`preferred`) and accepts a user who is merely present. Default true.
   */
  readonly requireUserVerification?: boolean;
  readonly services: object;
  readonly now: () => number;
}

interface Challenge {
  readonly c: string;
  readonly purpose: 'register' | 'login';
  readonly user: string | null;
  readonly at: number;
}

/** 422 `BINDERY_PASSKEY_REFUSED` on `credential`. */
function refused(message: string): HttpError {
  return new HttpError('BINDERY_PASSKEY_REFUSED', VALIDATION_DETAIL, { fieldErrors: { credential: message } });
}

/** `ctx.services.passkeys`. */
export class Passkeys {
  readonly #o: PasskeysOptions;
  /** Whether user verification is required (the `passkeys()` option `requireUserVerification`). */
  readonly #uv: boolean;

  constructor(options: PasskeysOptions) {
    this.#o = options;
    this.#uv = options.requireUserVerification !== false;
  }

  /** The relying party: `{ id, origin }` from `APP_URL`. */
  get relyingParty(): { readonly id: string; readonly origin: string } {
    return { id: this.#o.rpId, origin: this.#o.origin };
  }

  /** The account's passkeys, oldest first. */
  async list(user: unknown): Promise<PasskeyInfo[]> {
    return (await this.#o.store.list(this.#id(user))).map((p) => ({
      id: p.id,
      name: p.name,
      created_at: p.createdAt.toISOString(),
      last_used_at: p.lastUsedAt?.toISOString() ?? null,
      device_type: p.deviceType,
      backed_up: p.backedUp,
    }));
  }

  /**
   * Options for `navigator.credentials.create()` (JSON): a fresh challenge
   * kept in the session for one registration, a discoverable credential
   * (for usernameless sign-in), the account's passkeys excluded.
   */
  async registrationOptions(ctx: RequestContext, user: unknown): Promise<unknown> {
    const id = this.#id(user);
    const handle = await this.#o.store.handleOf(id);
    const existing = await this.#o.store.list(id);
    const row = user as Record<string, unknown>;
    const label = typeof row['email'] === 'string' ? row['email'] : id;
    const options = await generateRegistrationOptions({
      rpName: this.#o.rpName,
      rpID: this.#o.rpId,
      userName: label,
      userID: new Uint8Array(Buffer.from(handle, 'base64url')),
      userDisplayName: typeof row['name'] === 'string' ? row['name'] : label,
      timeout: CHALLENGE_TTL_MS,
      attestationType: 'none',
      excludeCredentials: existing.map((p) => ({ id: p.id, transports: p.transports })),
      authenticatorSelection: { residentKey: 'required', userVerification: this.#uv ? 'required' : 'preferred' },
    });
    this.#keep(ctx, options.challenge, 'register', id);
    return options;
  }

  /**
   * Verify a registration response (`navigator.credentials.create()`'s, as
   * JSON) against the session's challenge (used up either way), this
   * origin and RP ID, and store the passkey under `name`. Audited as `auth.passkey_added`.
   * @throws {HttpError} 422 on `credential` (`BINDERY_PASSKEY_REFUSED`) when it does not verify.
   */
  async register(ctx: RequestContext, user: unknown, response: unknown, name: string | undefined): Promise<PasskeyInfo> {
    const id = this.#id(user);
    const challenge = this.#take(ctx, 'register');
    if (challenge === null || challenge.user !== id) throw refused('No passkey registration was started here, or it expired. Start again.');
    let info: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
    try {
      info = await verifyRegistrationResponse({
        response: response as RegistrationResponseJSON,
        expectedChallenge: challenge.c,
        expectedOrigin: this.#o.origin,
        expectedRPID: this.#o.rpId,
        requireUserVerification: this.#uv,
      });
    } catch (error) {
      throw refused(`The passkey could not be verified: ${(error as Error).message}`);
    }
    if (!info.verified) throw refused('The passkey could not be verified.');
    const { credential, credentialDeviceType, credentialBackedUp } = info.registrationInfo;
    const label = (name ?? '').trim().slice(0, 100) || `Passkey ${(await this.#o.store.list(id)).length + 1}`;
    const now = new Date(this.#o.now());
    const added = await this.#o.store.add(
      {
        id: credential.id,
        userId: id,
        name: label,
        publicKey: credential.publicKey,
        counter: credential.counter,
        transports: credential.transports ?? [],
        deviceType: credentialDeviceType,
        backedUp: credentialBackedUp,
      },
      now,
    );
    if (!added) throw refused('This passkey is registered already.');
    await recordAccountEvent(this.#o.services, id, { action: 'auth.passkey_added', details: { name: label } });
    return {
      id: credential.id,
      name: label,
      created_at: now.toISOString(),
      last_used_at: null,
      device_type: credentialDeviceType,
      backed_up: credentialBackedUp,
    };
  }

  /**
   * Options for `navigator.credentials.get()` (JSON): a fresh challenge kept
   * in the session for one sign-in; no credential listed (usernameless);
   * `userVerification: 'required'` (a sign-in skips the password and the
   * code, so the authenticator must verify the user) unless the app opted out.
   */
  async authenticationOptions(ctx: RequestContext): Promise<unknown> {
    const options = await generateAuthenticationOptions({
      rpID: this.#o.rpId,
      timeout: CHALLENGE_TTL_MS,
      userVerification: this.#uv ? 'required' : 'preferred',
    });
    this.#keep(ctx, options.challenge, 'login', null);
    return options;
  }

  /**
   * Sign in with an assertion (`navigator.credentials.get()`'s, as JSON):
   * the session's challenge (used up either way), this origin and RP ID, a
   * known credential whose user handle (when sent) is its account's, a
   * valid signature, the user verified by the authenticator (the UV flag;
   * unless the app opted out), and a counter above the stored one (unless
   * the authenticator keeps none). Then the user is signed in. Audited as
   * `auth.passkey_login` (a refused assertion of a known credential as `auth.passkey_failed`).
   * @returns the user, signed in.
   * @throws {HttpError} 422 on `credential` (`BINDERY_PASSKEY_REFUSED`).
   */
  async authenticate(ctx: RequestContext, response: unknown, options: { readonly remember?: boolean } = {}): Promise<unknown> {
    const challenge = this.#take(ctx, 'login');
    if (challenge === null) throw refused('No passkey sign-in was started here, or it expired. Start again.');
    const r = response as Partial<AuthenticationResponseJSON> | null;
    const stored = typeof r?.id === 'string' ? await this.#o.store.find(r.id) : null;
    if (stored === null) throw refused('This passkey is not registered here.');
    const handle = r?.response?.userHandle;
    if (typeof handle === 'string' && handle !== '' && (await this.#o.store.userOfHandle(handle)) !== stored.userId) {
      throw refused('This passkey does not belong to the account it names.');
    }
    let newCounter: number;
    try {
      const result = await verifyAuthenticationResponse({
        response: response as AuthenticationResponseJSON,
        expectedChallenge: challenge.c,
        expectedOrigin: this.#o.origin,
        expectedRPID: this.#o.rpId,
        credential: { id: stored.id, publicKey: new Uint8Array(stored.publicKey), counter: stored.counter, transports: stored.transports },
        // The sign-in replaces the password and the code: "user present" alone is not enough.
        requireUserVerification: this.#uv,
      });
      if (!result.verified) throw new Error('the signature does not verify');
      newCounter = result.authenticationInfo.newCounter;
    } catch (error) {
      await recordAccountEvent(this.#o.services, stored.userId, { action: 'auth.passkey_failed', details: { passkey: stored.name } });
      throw refused(`The passkey could not be verified: ${(error as Error).message}`);
    }
    if (!(await this.#o.store.used(stored.id, stored.counter, newCounter, new Date(this.#o.now())))) {
      throw refused('The passkey was used at the same moment elsewhere. Try again.');
    }
    const user = await this.#o.auth.users.findById(stored.userId);
    if (user === null) throw refused('The account of this passkey is gone.');
    await this.#o.auth.login(ctx, user, { remember: options.remember === true, method: 'passkey' });
    await recordAccountEvent(this.#o.services, stored.userId, { action: 'auth.passkey_login', details: { passkey: stored.name } });
    return user;
  }

  /**
   * Remove one of the account's passkeys. Audited as `auth.passkey_removed`.
   * @throws {NotFoundError} 404 when the account has no such passkey.
   */
  async remove(user: unknown, passkeyId: string): Promise<void> {
    const id = this.#id(user);
    if (!(await this.#o.store.remove(id, passkeyId))) throw new NotFoundError('You have no passkey with this identifier.');
    await recordAccountEvent(this.#o.services, id, { action: 'auth.passkey_removed' });
  }

  #id(user: unknown): string {
    return this.#o.auth.users.idOf(user);
  }

  #keep(ctx: RequestContext, c: string, purpose: Challenge['purpose'], user: string | null): void {
    const challenge: Challenge = { c, purpose, user, at: this.#o.now() };
    ctx.session.put(CHALLENGE_KEY, challenge);
  }

  /** The session's challenge of `purpose`, removed (a challenge answers one response); `null` when none or expired. */
  #take(ctx: RequestContext, purpose: Challenge['purpose']): Challenge | null {
    const c = ctx.session.pull<Partial<Challenge>>(CHALLENGE_KEY);
    if (typeof c !== 'object' || c === null || typeof c.c !== 'string' || c.purpose !== purpose || typeof c.at !== 'number') return null;
    const age = this.#o.now() - c.at;
    return age < 0 || age > CHALLENGE_TTL_MS ? null : { c: c.c, purpose, user: c.user ?? null, at: c.at };
  }
}
