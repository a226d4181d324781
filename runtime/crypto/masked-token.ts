/**
 * Masked secrets: a per-session secret shown in pages with a fresh random pad
 * every time (docs/spec.md 5.4 layer 2: "The token is masked with a fresh
 * random pad at every render"; docs/csrf.md "Tokens"). The session keeps the
 * secret and offers it masked as its CSRF token (`ctx.session.csrfToken()`);
 * the `csrf` middleware checks what a request carries against it.
 *
 * The secret is 32 random bytes. Pages get `base64url(pad ‖ (pad XOR secret))`
 * with a fresh 32-byte pad per call, so the secret never appears twice in
 * responses (no BREACH-style recovery from compressed pages). Any masked form
 * of the secret is accepted; the unmasked secret itself never leaves the
 * server and is refused.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';

/** Bytes of the unmasked secret. */
export const SECRET_BYTES = 32;
/** Characters of a masked secret (base64url of 64 bytes, no padding). */
export const MASKED_CHARS = 86;
const MASKED = /^[A-Za-z0-9_-]{86}$/;

/** A fresh unmasked secret: 32 random bytes, base64url. */
export function newMaskableSecret(): string {
  return randomBytes(SECRET_BYTES).toString('base64url');
}

/**
 * Mask `secret` with a fresh pad.
 * @param secret the unmasked secret, base64url of 32 bytes.
 * @returns 86 base64url characters.
 */
export function maskSecret(secret: string): string {
  const raw = Buffer.from(secret, 'base64url');
  const out = randomBytes(SECRET_BYTES * 2);
  for (let i = 0; i < SECRET_BYTES; i++) out[SECRET_BYTES + i] = out[i]! ^ raw[i]!;
  return out.toString('base64url');
}

/**
 * Whether `submitted` is a masked form of `secret`. Constant-time in the
 * secret's bytes. Never throws.
 * @param submitted what the request carried (`_token` or `X-CSRF-Token`).
 * @param secret the unmasked secret (base64url of 32 bytes).
 */
export function matchesMaskedSecret(submitted: string, secret: string): boolean {
  if (submitted.length !== MASKED_CHARS || !MASKED.test(submitted)) return false;
  const masked = Buffer.from(submitted, 'base64url');
  const raw = Buffer.from(secret, 'base64url');
  if (masked.length !== SECRET_BYTES * 2 || raw.length !== SECRET_BYTES) return false;
  const unmasked = Buffer.allocUnsafe(SECRET_BYTES);
  for (let i = 0; i < SECRET_BYTES; i++) unmasked[i] = masked[i]! ^ masked[SECRET_BYTES + i]!;
  return timingSafeEqual(unmasked, raw);
}
