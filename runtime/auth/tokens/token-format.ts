/**
 * The plain form of an API token and what is stored of it (docs/spec.md 2.2;
 * docs/tokens.md "Format").
 *
 * Plain: `<id>|<secret>` — the row's ID, a bar, and 40 base64url characters
 * from 30 random bytes (240 bits). Stored: the SHA-256 of the secret, in hex.
 * A fast hash is enough: the secret is random and long, not a password.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Random bytes of a secret. */
export const SECRET_BYTES = 30;
/** Characters of a secret (base64url of {@link SECRET_BYTES}). */
export const SECRET_CHARS = 40;

const PLAIN = /^([1-9][0-9]{0,14})\|([A-Za-z0-9_-]{40})$/;

/** A fresh secret: 40 base64url characters. */
export function newSecret(): string {
  return randomBytes(SECRET_BYTES).toString('base64url');
}

/** The stored form of a secret: SHA-256, lower-case hex (64 characters). */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** `<id>|<secret>`. */
export function formatToken(id: number | string, secret: string): string {
  return `${id}|${secret}`;
}

/**
 * Split a plain token into its ID and secret.
 * @returns `null` when it is not `<id>|<secret>` with a positive decimal ID (at most 15 digits) and a 40-character base64url secret.
 */
export function parseToken(plain: string): { readonly id: string; readonly secret: string } | null {
  const m = PLAIN.exec(plain);
  return m === null ? null : { id: m[1]!, secret: m[2]! };
}

/** Whether `secret` hashes to `storedHash`, compared in constant time. */
export function secretMatches(secret: string, storedHash: string): boolean {
  const given = Buffer.from(hashSecret(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return stored.length === given.length && timingSafeEqual(given, stored);
}
