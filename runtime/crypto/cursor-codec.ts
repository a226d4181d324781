/**
 * Opaque page cursors (docs/schema-language.md "List routes"; docs/audit.md
 * "History"): a list of JSON values as base64url text, optionally sealed
 * with an HMAC so that a client cannot make or edit one.
 *
 * Unsealed cursors (the audit history's) are checked value by value by
 * their reader; sealed cursors (list routes') are refused unless one of the
 * app's keys signed them, so their values can be trusted as written.
 */
import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';
import type { KeyRing } from './key-ring.js';

/** Bytes of the HMAC-SHA256 tag a sealed cursor carries (128 bits). */
const TAG_BYTES = 16;

/** The values as an opaque cursor: base64url of their JSON. */
export function encodeCursor(values: readonly unknown[]): string {
  return Buffer.from(JSON.stringify(values)).toString('base64url');
}

/** The values of a cursor {@link encodeCursor} made, or undefined when `text` is not one (not base64url JSON of a list). */
export function decodeCursor(text: string): unknown[] | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    return Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Seals and opens cursors with keys derived from the app's keys (`APP_KEY`,
 * then `APP_PREVIOUS_KEYS`, so cursors outlive a key rotation). A sealed
 * cursor is `<base64url JSON>.<base64url tag>`.
 */
export class CursorSealer {
  // Key objects, made once: HMAC over a Buffer key costs several times more per call on Node 24.
  private readonly keys: readonly KeyObject[];

  /** @param ring the app's keys; each is turned into a cursor key by HMAC-SHA256(key, "bindery cursor"). */
  constructor(ring: KeyRing) {
    this.keys = ring.keys.map((k) => createSecretKey(createHmac('sha256', k.bytes).update('bindery cursor').digest()));
  }

  /** The values as a sealed cursor, tagged with the current key. */
  seal(values: readonly unknown[]): string {
    const body = encodeCursor(values);
    return `${body}.${this.tag(this.keys[0]!, body).toString('base64url')}`;
  }

  /** The values of a cursor one of the keys sealed, or undefined for anything else (edited, forged, truncated). */
  open(text: string): unknown[] | undefined {
    const dot = text.indexOf('.');
    if (dot <= 0 || text.length > 4096) return undefined;
    const body = text.slice(0, dot);
    const tag = Buffer.from(text.slice(dot + 1), 'base64url');
    if (tag.length !== TAG_BYTES || tag.toString('base64url') !== text.slice(dot + 1)) return undefined;
    if (!this.keys.some((key) => timingSafeEqual(this.tag(key, body), tag))) return undefined;
    return decodeCursor(body);
  }

  private tag(key: KeyObject, body: string): Buffer {
    return createHmac('sha256', key).update(body).digest().subarray(0, TAG_BYTES);
  }
}
