/**
 * Masked CSRF tokens (docs/spec.md 5.4 layer 2: "The token is masked with a fresh
 * random pad at every render"; docs/csrf.md "Tokens").
 *
 * The session keeps one unmasked token of 32 random bytes. Pages get
 * `base64url(pad ‖ (pad XOR token))` with a fresh 32-byte pad per call, so
 * the token never appears twice in responses (no BREACH-style recovery from
 * compressed pages). Any masked form of the session's token is accepted; the
 * unmasked token itself never leaves the server and is refused.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';

/** Bytes of the unmasked token. */
export const CSRF_TOKEN_BYTES = 32;
/** Characters of a masked token (base64url of 64 bytes, no padding). */
export const MASKED_TOKEN_CHARS = 86;
const MASKED = /^[A-Za-z0-9_-]{86}$/;

/**
 * Mask the session's token with a fresh pad.
 * @param token the unmasked token, base64url of 32 bytes.
 * @returns 86 base64url characters.
 */
export function maskCsrfToken(token: string): string {
  const raw = Buffer.from(token, 'base64url');
  const out = randomBytes(CSRF_TOKEN_BYTES * 2);
  for (let i = 0; i < CSRF_TOKEN_BYTES; i++) out[CSRF_TOKEN_BYTES + i] = out[i]! ^ raw[i]!;
  return out.toString('base64url');
}

/**
 * Whether `submitted` is a masked form of `token`. Constant-time in the token
 * bytes. Never throws.
 * @param submitted what the request carried (`_token` or `X-CSRF-Token`).
 * @param token the session's unmasked token (base64url of 32 bytes).
 */
export function verifyCsrfToken(submitted: string, token: string): boolean {
  if (submitted.length !== MASKED_TOKEN_CHARS || !MASKED.test(submitted)) return false;
  const masked = Buffer.from(submitted, 'base64url');
  const raw = Buffer.from(token, 'base64url');
  if (masked.length !== CSRF_TOKEN_BYTES * 2 || raw.length !== CSRF_TOKEN_BYTES) return false;
  const unmasked = Buffer.allocUnsafe(CSRF_TOKEN_BYTES);
  for (let i = 0; i < CSRF_TOKEN_BYTES; i++) unmasked[i] = masked[i]! ^ masked[CSRF_TOKEN_BYTES + i]!;
  return timingSafeEqual(unmasked, raw);
}
