/**
 * The application key: `APP_KEY` and `APP_PREVIOUS_KEYS` (docs/spec.md 2.3, 5.3
 * "Key rotation"; docs/settings.md).
 *
 * Format: `base64:` followed by the standard, padded base64 of exactly 32
 * random bytes (44 characters). Session cookies, remember-me cookies and
 * verification/reset tokens derive their keys from it.
 */
import { randomBytes } from 'node:crypto';
import type { SettingParser } from './setting.js';

/** Length of the key in bytes. */
export const APP_KEY_BYTES = 32;

const PREFIX = 'base64:';
const ALLOWED = `"base64:" followed by the base64 of exactly ${APP_KEY_BYTES} random bytes`;

/**
 * Make a fresh key from the OS random source.
 * @returns `base64:<44 base64 characters>`.
 * @example generateAppKey() // "base64:q3L0…="
 */
export function generateAppKey(): string {
  return PREFIX + randomBytes(APP_KEY_BYTES).toString('base64');
}

/**
 * Decode a key.
 * @returns the 32 key bytes, or a message saying what is wrong (never quoting the key).
 */
export function decodeAppKey(text: string): { ok: true; key: Buffer } | { ok: false; message: string } {
  if (!text.startsWith(PREFIX)) return { ok: false, message: 'does not start with "base64:"' };
  const b64 = text.slice(PREFIX.length);
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || b64.length % 4 !== 0) return { ok: false, message: 'the part after "base64:" is not base64' };
  const key = Buffer.from(b64, 'base64');
  if (key.length !== APP_KEY_BYTES) return { ok: false, message: `decodes to ${key.length} bytes, not ${APP_KEY_BYTES}` };
  return { ok: true, key };
}

/** Parser of one key; the value is the 32 key bytes. */
export function appKeySetting(): SettingParser<Buffer> {
  return {
    allowed: ALLOWED,
    parse(text) {
      const r = decodeAppKey(text);
      return r.ok ? { ok: true, value: r.key } : { ok: false, message: r.message };
    },
  };
}
