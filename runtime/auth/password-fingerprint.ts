/**
 * The fingerprint of a password hash kept in the session (docs/spec.md 2.3 "The
 * session also holds … a fingerprint of the user's password hash", 3
 * "password changed → other sessions end when next used").
 *
 * HMAC-SHA256 of the hash under a key derived from the app key (HKDF, info
 * `bindery:v1:password-fingerprint`), truncated to 128 bits, base64url. The
 * hash itself never enters the session (the cookie driver stores the
 * session in the cookie, encrypted). Every key of the ring is tried, so
 * rotating `APP_KEY` (the old key moved to `APP_PREVIOUS_KEYS`) does not
 * sign anyone out.
 */
import { createHmac, createSecretKey, hkdfSync, type KeyObject, timingSafeEqual } from 'node:crypto';
import type { KeyRing } from '../crypto/key-ring.js';

/** The HKDF info of the session fingerprint's key. */
export const PASSWORD_FINGERPRINT_INFO = 'bindery:v1:password-fingerprint';
const BYTES = 16;

/** Outcome of {@link PasswordFingerprints.match}. */
export type FingerprintMatch = 'current' | 'previous' | false;

/** Fingerprints of password hashes under an app's keys. */
export class PasswordFingerprints {
  // Key objects, made once: HMAC over a Buffer key costs several times more per call on Node 24.
  readonly #keys: ReadonlyArray<{ readonly key: KeyObject; readonly current: boolean }>;

  /**
   * @param ring the app's keys (`APP_KEY` first, then `APP_PREVIOUS_KEYS`).
   * @param info the HKDF info of the key (default the session fingerprint's); another info gives unrelated fingerprints (the emailed links use their own, runtime/auth/account/link-fingerprint.ts).
   */
  constructor(ring: KeyRing, info: string = PASSWORD_FINGERPRINT_INFO) {
    this.#keys = ring.keys.map((k) => ({
      key: createSecretKey(Buffer.from(hkdfSync('sha256', k.bytes, Buffer.alloc(0), info, 32))),
      current: k.current,
    }));
  }

  /** The fingerprint of `hash` under `APP_KEY` (22 base64url characters). */
  of(hash: string): string {
    return this.#mac(this.#keys[0]!.key, hash).toString('base64url');
  }

  /**
   * Whether `fingerprint` was made from `hash`: `'current'` under `APP_KEY`,
   * `'previous'` under a key of `APP_PREVIOUS_KEYS` (store a fresh one), or
   * `false`. Constant time in the fingerprint; never throws.
   */
  match(fingerprint: string | null, hash: string): FingerprintMatch {
    if (fingerprint === null) return false;
    const given = Buffer.from(fingerprint, 'base64url');
    if (given.length !== BYTES) return false;
    for (const k of this.#keys) {
      if (timingSafeEqual(given, this.#mac(k.key, hash))) return k.current ? 'current' : 'previous';
    }
    return false;
  }

  #mac(key: KeyObject, hash: string): Buffer {
    return createHmac('sha256', key).update(hash, 'utf8').digest().subarray(0, BYTES);
  }
}
