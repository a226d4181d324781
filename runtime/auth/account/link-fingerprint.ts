/**
 * The fingerprint that binds an emailed account link to the account as it
 * was when the link was mailed (docs/auth.md "Emailed links end when the
 * account changes"; docs/mail.md "Verification and reset links").
 *
 * HMAC-SHA256, truncated to 128 bits, of the address the link was mailed to
 * (lower case) and the password hash, under a key derived from `APP_KEY`
 * (HKDF, info `bindery:v1:link-fingerprint`: unrelated to the session's
 * password fingerprint). Verification, reset and email change tokens carry
 * it, so a change of address or of password ends every link made before,
 * while the links stay stateless. Keys of `APP_PREVIOUS_KEYS` still match.
 */
import type { KeyRing } from '../../crypto/key-ring.js';
import { PasswordFingerprints } from '../password-fingerprint.js';

/** The HKDF info of the link fingerprint's key. */
export const LINK_FINGERPRINT_INFO = 'bindery:v1:link-fingerprint';

/** Link fingerprints under an app's keys. */
export class LinkFingerprints {
  readonly #macs: PasswordFingerprints;

  /** @param ring the app's keys (`KeyRing.fromSettings(ctx.settings)`). */
  constructor(ring: KeyRing) {
    this.#macs = new PasswordFingerprints(ring, LINK_FINGERPRINT_INFO);
  }

  /** The fingerprint of the account with `email` and `passwordHash` now, under `APP_KEY` (22 base64url characters). */
  of(email: string, passwordHash: string): string {
    return this.#macs.of(material(email, passwordHash));
  }

  /** Whether `fingerprint` (from a token) was made for this address and password hash, under any key of the ring. Never throws. */
  matches(fingerprint: unknown, email: string, passwordHash: string): boolean {
    return typeof fingerprint === 'string' && this.#macs.match(fingerprint, material(email, passwordHash)) !== false;
  }
}

/** The address (trimmed, lower case) and the hash, joined by a NUL (neither contains one). */
function material(email: string, passwordHash: string): string {
  return `${email.trim().toLowerCase()}\u0000${passwordHash}`;
}
