/**
 * Signatures of bindery's own storage URLs (docs/storage.md "Signed URLs"):
 * local-disk download URLs and upload tokens, HMAC-SHA256 with a key
 * derived from each of the app's keys (`APP_KEY`, then `APP_PREVIOUS_KEYS`,
 * so URLs outlive a key rotation until they expire).
 */
import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';
import type { KeyRing } from '../crypto/key-ring.js';
import { StorageSignatureError } from './errors.js';

/** Bytes of a signature (128 bits). */
const TAG_BYTES = 16;

/** What an upload token carries (signed; readable by anyone holding it). */
export interface UploadClaims {
  /** Disk and key the object goes to. */
  readonly disk: string;
  readonly key: string;
  /** The most bytes accepted. */
  readonly maxBytes: number;
  /** The route or purpose the upload is for (a token of another purpose is refused). */
  readonly purpose: string;
  /** Who started the upload (the signed-in user's ID), or `null` for no one: only the same may confirm it. */
  readonly owner: string | null;
  /** The record the upload is for (`documents/12`): it is confirmed for that record only. */
  readonly target: string;
  /** Expiry, seconds since the epoch. */
  readonly expires: number;
}

/** Signs and checks storage URLs and upload tokens (see the module comment). */
export class UrlSigner {
  // Key objects, made once: HMAC over a Buffer key costs several times more per call on Node 24.
  private readonly keys: readonly KeyObject[];

  /**
   * @param ring the app's keys; each becomes a storage key by HMAC-SHA256(key, "bindery storage url").
   * @param now the clock, milliseconds since the epoch.
   */
  constructor(
    ring: KeyRing,
    private readonly now: () => number = Date.now,
  ) {
    this.keys = ring.keys.map((k) => createSecretKey(createHmac('sha256', k.bytes).update('bindery storage url').digest()));
  }

  /** The signature of `payload` with the current key, base64url. */
  sign(payload: string): string {
    return this.tag(this.keys[0]!, payload).toString('base64url');
  }

  /**
   * Check `signature` over `payload` and the expiry.
   * @param expires seconds since the epoch.
   * @throws {StorageSignatureError} (403) when it expired or no key signed it.
   */
  verify(payload: string, signature: string, expires: number): void {
    const tag = Buffer.from(signature, 'base64url');
    if (tag.length !== TAG_BYTES || !this.keys.some((key) => timingSafeEqual(this.tag(key, payload), tag)))
      throw new StorageSignatureError('the signature does not match');
    if (!Number.isSafeInteger(expires) || expires * 1000 <= this.now()) throw new StorageSignatureError('it has expired');
  }

  /** Seconds since the epoch, `ms` from now (rounded up). */
  expiresIn(ms: number): number {
    return Math.ceil((this.now() + ms) / 1000);
  }

  /** An upload token: base64url JSON of the claims (disk, key, size limit, purpose, owner, target, expiry), a dot, the signature. */
  uploadToken(claims: UploadClaims): string {
    const fields = [claims.disk, claims.key, claims.maxBytes, claims.purpose, claims.owner, claims.target, claims.expires];
    const body = Buffer.from(JSON.stringify(fields)).toString('base64url');
    return `${body}.${this.sign(`upload\n${body}`)}`;
  }

  /**
   * The claims of an upload token this app made.
   * @param options.allowExpired accept a token past its expiry (the confirm step, once the bytes are up).
   * @throws {StorageSignatureError} (403) for a token edited, forged, expired or not a token.
   */
  openUploadToken(token: string, options: { readonly allowExpired?: boolean } = {}): UploadClaims {
    const dot = token.indexOf('.');
    if (dot <= 0 || token.length > 2048) throw new StorageSignatureError('it is not an upload token');
    const body = token.slice(0, dot);
    let claims: UploadClaims;
    try {
      const [disk, key, maxBytes, purpose, owner, target, expires] = JSON.parse(
        Buffer.from(body, 'base64url').toString('utf8'),
      ) as unknown[];
      if (
        typeof disk !== 'string' ||
        typeof key !== 'string' ||
        typeof maxBytes !== 'number' ||
        typeof purpose !== 'string' ||
        (owner !== null && typeof owner !== 'string') ||
        typeof target !== 'string' ||
        typeof expires !== 'number'
      )
        throw new TypeError('claims');
      claims = { disk, key, maxBytes, purpose, owner, target, expires };
    } catch {
      throw new StorageSignatureError('it is not an upload token');
    }
    this.verify(`upload\n${body}`, token.slice(dot + 1), options.allowExpired ? Number.MAX_SAFE_INTEGER : claims.expires);
    return claims;
  }

  private tag(key: KeyObject, payload: string): Buffer {
    return createHmac('sha256', key).update(payload).digest().subarray(0, TAG_BYTES);
  }
}

/** The signed text of a local download URL. */
export function downloadPayload(disk: string, key: string, name: string, type: string, expires: number): string {
  return `download\n${disk}\n${key}\n${name}\n${type}\n${expires}`;
}
