/**
 * The application's keys: `APP_KEY` and the keys retired into
 * `APP_PREVIOUS_KEYS` (docs/spec.md 2.3, 5.3 "Key rotation"; docs/sessions.md
 * "Encryption").
 *
 * Every key has a short public ID (4 bytes, hex) derived from it with
 * HMAC-SHA256, so a sealed value can name the key that made it without
 * revealing anything about the key. New values are always sealed with the
 * current key; values sealed with a previous key still open.
 */
import { createHmac } from 'node:crypto';
import { APP_KEY_BYTES } from '../config/app-key.js';

/** One key of the ring. */
export interface AppKey {
  /** 8 hex characters identifying the key (not secret). */
  readonly id: string;
  /** The 32 key bytes. */
  readonly bytes: Buffer;
  /** True for `APP_KEY`, false for a key of `APP_PREVIOUS_KEYS`. */
  readonly current: boolean;
}

/** Length of a key ID in bytes (8 hex characters). */
export const KEY_ID_BYTES = 4;

/**
 * The public ID of a key: the first 4 bytes of HMAC-SHA256(key, "bindery key id").
 * @param key 32 key bytes.
 * @returns 8 lower-case hex characters.
 */
export function keyIdOf(key: Buffer): string {
  return createHmac('sha256', key).update('bindery key id').digest().subarray(0, KEY_ID_BYTES).toString('hex');
}

/**
 * The current key and the previous ones.
 *
 * @example
 *   const ring = new KeyRing(settings.APP_KEY, settings.APP_PREVIOUS_KEYS);
 *   ring.current.id // "3f9a0c12"
 */
export class KeyRing {
  /** The key new values are sealed with (`APP_KEY`). */
  readonly current: AppKey;
  /** Every key, current first, then the previous keys in the order given. */
  readonly keys: readonly AppKey[];

  /**
   * @param current the 32 bytes of `APP_KEY`.
   * @param previous the keys of `APP_PREVIOUS_KEYS` (duplicates of the current key are ignored).
   * @throws {RangeError} when a key is not exactly 32 bytes.
   */
  constructor(current: Buffer, previous: readonly Buffer[] = []) {
    for (const key of [current, ...previous]) {
      if (key.length !== APP_KEY_BYTES) throw new RangeError(`An application key must be ${APP_KEY_BYTES} bytes, got ${key.length}.`);
    }
    this.current = { id: keyIdOf(current), bytes: Buffer.from(current), current: true };
    const keys: AppKey[] = [this.current];
    for (const key of previous) {
      if (keys.some((k) => k.bytes.equals(key))) continue;
      keys.push({ id: keyIdOf(key), bytes: Buffer.from(key), current: false });
    }
    this.keys = keys;
  }

  /**
   * The ring of an app's loaded settings (`APP_KEY`, `APP_PREVIOUS_KEYS`).
   * @throws {RangeError} when `APP_KEY` is absent (the settings were not loaded).
   */
  static fromSettings(settings: Readonly<Record<string, unknown>>): KeyRing {
    const current = settings.APP_KEY;
    if (!Buffer.isBuffer(current)) throw new RangeError('KeyRing.fromSettings needs the loaded APP_KEY (32 bytes).');
    const previous = Array.isArray(settings.APP_PREVIOUS_KEYS) ? (settings.APP_PREVIOUS_KEYS as Buffer[]) : [];
    return new KeyRing(current, previous);
  }

  /** The keys whose ID is `id` (normally one; none for an unknown ID). */
  byId(id: string): AppKey[] {
    return this.keys.filter((k) => k.id === id);
  }
}
