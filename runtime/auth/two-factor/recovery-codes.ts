/**
 * Recovery codes (docs/auth.md "Recovery codes"): ten single-use codes of
 * two groups of five characters (`k7qm2-x9p4t`, about 50 bits), stored as
 * SHA-256 hashes only; the plain codes are shown once.
 */
import { createHash, randomInt } from 'node:crypto';

/** How many codes a set has. */
export const RECOVERY_CODE_COUNT = 10;

/** Letters and digits that are not easily mistaken for one another. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A new set of plain codes. */
export function newRecoveryCodes(count: number = RECOVERY_CODE_COUNT): string[] {
  const group = () => Array.from({ length: 5 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  return Array.from({ length: count }, () => `${group()}-${group()}`);
}

/** The stored form of a code: SHA-256 of its normalized form (lower case, no spaces), hex. */
export function hashRecoveryCode(code: string): string {
  return createHash('sha256').update(code.trim().toLowerCase().replace(/\s+/g, '')).digest('hex');
}
