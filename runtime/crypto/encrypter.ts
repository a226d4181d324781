/**
 * Authenticated encryption with the application key (docs/spec.md 2.3: session
 * cookie, remember-me cookie, email verification and password reset tokens;
 * docs/sessions.md "Encryption").
 *
 * AES-256-GCM with a key derived per value: HKDF-SHA256 over the app key with
 * a fresh random 16-byte salt and the *purpose* as info, so every write uses
 * its own key and values sealed for one purpose never open for another. The
 * *context* (a cookie name, a user ID …) is authenticated alongside
 * (additional data) but not stored: a value opens only under the context it
 * was sealed for.
 *
 * Sealed form, base64url without padding:
 *
 * | bytes | content |
 * |---|---|
 * | 1 | format version (1) |
 * | 4 | ID of the key ({@link keyIdOf}) |
 * | 16 | HKDF salt |
 * | 12 | GCM nonce |
 * | n | ciphertext |
 * | 16 | GCM tag |
 *
 * The additional data is the 33 header bytes, a 0 byte and the context in UTF-8.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { KEY_ID_BYTES, type KeyRing, type AppKey } from './key-ring.js';

const VERSION = 1;
const SALT_BYTES = 16;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = 1 + KEY_ID_BYTES + SALT_BYTES + IV_BYTES;
/** Sealed values longer than this (characters) are refused without decoding. */
const MAX_SEALED_CHARS = 1 << 20;
const PURPOSE = /^[a-z][a-z0-9.:_-]{0,63}$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** Options of {@link Encrypter.seal} and {@link Encrypter.open}. */
export interface SealOptions {
  /** Authenticated, not stored: the value opens only with the same context (e.g. the cookie name). Default `''`. */
  readonly context?: string;
}

/** A value that opened. */
export interface Opened {
  readonly plaintext: Buffer;
  /** ID of the key that sealed it. */
  readonly keyId: string;
  /** False when it was sealed with a key of `APP_PREVIOUS_KEYS`: seal it again to move it to `APP_KEY`. */
  readonly current: boolean;
}

/** Options of {@link Encrypter.sealJson}. */
export interface SealJsonOptions extends SealOptions {
  /** Expiry, milliseconds since the epoch; absent: never expires. */
  readonly expiresAt?: number;
}

/** Options of {@link Encrypter.openJson}. */
export interface OpenJsonOptions extends SealOptions {
  /** The time to check expiry against, milliseconds since the epoch (default `Date.now()`). */
  readonly now?: number;
}

/** Outcome of {@link Encrypter.openJson}. */
export type OpenedJson<T> =
  | { readonly ok: true; readonly value: T; readonly keyId: string; readonly current: boolean; readonly expiresAt: number | undefined }
  | { readonly ok: false; readonly reason: 'invalid' | 'expired' };

/**
 * Seals and opens values with the keys of a {@link KeyRing}.
 *
 * Purposes in use: `session` (session cookie, context = cookie name),
 * `session-id` (database driver cookie), and for accounts `remember`,
 * `verify-email`, `reset-password`. A purpose is lower-case letters, digits
 * and `.:_-`, starting with a letter.
 *
 * @example
 *   const enc = new Encrypter(KeyRing.fromSettings(settings));
 *   const token = enc.sealJson('verify-email', { user: '42', email: 'a@b.c' }, { expiresAt: Date.now() + 3_600_000 });
 *   const r = enc.openJson<{ user: string; email: string }>('verify-email', token);
 *   if (r.ok) r.value.email;
 */
export class Encrypter {
  readonly ring: KeyRing;

  constructor(ring: KeyRing) {
    this.ring = ring;
  }

  /**
   * Encrypt and authenticate `plaintext` with the current key.
   * @param purpose what the value is for (HKDF info); see the class doc.
   * @returns base64url text (no padding), safe in cookies and URLs; 66 characters longer than the base64url of the plaintext, roughly.
   * @throws {RangeError} for a malformed purpose (a programming error).
   */
  seal(purpose: string, plaintext: string | Uint8Array, options: SealOptions = {}): string {
    checkPurpose(purpose);
    const key = this.ring.current;
    const header = Buffer.allocUnsafe(HEADER_BYTES);
    header[0] = VERSION;
    header.write(key.id, 1, 'hex');
    randomBytes(SALT_BYTES + IV_BYTES).copy(header, 1 + KEY_ID_BYTES);
    const salt = header.subarray(1 + KEY_ID_BYTES, 1 + KEY_ID_BYTES + SALT_BYTES);
    const iv = header.subarray(1 + KEY_ID_BYTES + SALT_BYTES);
    const cipher = createCipheriv('aes-256-gcm', deriveKey(key, salt, purpose), iv);
    cipher.setAAD(additionalData(header, options.context));
    const data = typeof plaintext === 'string' ? Buffer.from(plaintext, 'utf8') : plaintext;
    const body = Buffer.concat([header, cipher.update(data), cipher.final(), cipher.getAuthTag()]);
    return body.toString('base64url');
  }

  /**
   * Decrypt a value made by {@link seal} for the same purpose and context.
   * @returns the plaintext and the key that sealed it, or `null` when the value is malformed, truncated, tampered with, sealed for another purpose or context, or by a key not in the ring. Never throws for bad input.
   */
  open(purpose: string, sealed: string, options: SealOptions = {}): Opened | null {
    checkPurpose(purpose);
    if (sealed.length > MAX_SEALED_CHARS || !BASE64URL.test(sealed)) return null;
    const body = Buffer.from(sealed, 'base64url');
    if (body.length < HEADER_BYTES + TAG_BYTES || body[0] !== VERSION) return null;
    // Only the canonical encoding opens (no extra or altered padding bits).
    if (body.toString('base64url') !== sealed) return null;
    const header = body.subarray(0, HEADER_BYTES);
    const keyId = header.subarray(1, 1 + KEY_ID_BYTES).toString('hex');
    const salt = header.subarray(1 + KEY_ID_BYTES, 1 + KEY_ID_BYTES + SALT_BYTES);
    const iv = header.subarray(1 + KEY_ID_BYTES + SALT_BYTES);
    const ciphertext = body.subarray(HEADER_BYTES, body.length - TAG_BYTES);
    const tag = body.subarray(body.length - TAG_BYTES);
    const aad = additionalData(header, options.context);
    for (const key of this.ring.byId(keyId)) {
      try {
        const decipher = createDecipheriv('aes-256-gcm', deriveKey(key, salt, purpose), iv);
        decipher.setAAD(aad);
        decipher.setAuthTag(tag);
        const plaintext = Buffer.concat([decipher.update(ciphertext), decipher.final()]);
        return { plaintext, keyId, current: key.current };
      } catch {
        // Wrong key with a colliding ID, or tampered: try the next one.
      }
    }
    return null;
  }

  /**
   * Seal a JSON value, optionally with an expiry checked by {@link openJson}.
   * @throws {TypeError} when `value` cannot be serialized (e.g. a BigInt or a cycle).
   */
  sealJson(purpose: string, value: unknown, options: SealJsonOptions = {}): string {
    const envelope = options.expiresAt === undefined ? { v: value } : { v: value, e: Math.floor(options.expiresAt) };
    return this.seal(purpose, JSON.stringify(envelope), options);
  }

  /**
   * Open a value made by {@link sealJson}.
   * @returns `{ ok: true, value, … }`, or `{ ok: false, reason }`: `invalid` (does not open, or is not such a value) or `expired` (opened, but its expiry is at or before `now`). Never throws.
   */
  openJson<T = unknown>(purpose: string, sealed: string, options: OpenJsonOptions = {}): OpenedJson<T> {
    const opened = this.open(purpose, sealed, options);
    if (opened === null) return { ok: false, reason: 'invalid' };
    let envelope: unknown;
    try {
      envelope = JSON.parse(opened.plaintext.toString('utf8'));
    } catch {
      return { ok: false, reason: 'invalid' };
    }
    if (typeof envelope !== 'object' || envelope === null || !('v' in envelope)) return { ok: false, reason: 'invalid' };
    const { v, e } = envelope as { v: T; e?: unknown };
    if (e !== undefined && typeof e !== 'number') return { ok: false, reason: 'invalid' };
    if (typeof e === 'number' && e <= (options.now ?? Date.now())) return { ok: false, reason: 'expired' };
    return { ok: true, value: v, keyId: opened.keyId, current: opened.current, expiresAt: e };
  }
}

function checkPurpose(purpose: string): void {
  if (!PURPOSE.test(purpose))
    throw new RangeError(
      `Encryption purpose ${JSON.stringify(purpose)} is invalid: use lower-case letters, digits and .:_-, starting with a letter.`,
    );
}

function deriveKey(key: AppKey, salt: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', key.bytes, salt, `bindery:v${VERSION}:${purpose}`, 32));
}

function additionalData(header: Buffer, context: string | undefined): Buffer {
  return context === undefined || context === ''
    ? Buffer.concat([header, ZERO])
    : Buffer.concat([header, ZERO, Buffer.from(context, 'utf8')]);
}

const ZERO = Buffer.from([0]);
