/**
 * What a session holds (docs/spec.md 2.3 "Session cookie": random ID, CSRF token,
 * start time, time of last use, application values, flash data; the user's
 * ID and password fingerprint), and its compact JSON form.
 */
import { randomBytes } from 'node:crypto';
import { newMaskableSecret } from '../crypto/masked-token.js';

/** One session's data. Times are milliseconds since the epoch. */
export interface SessionRecord {
  /** Random 128-bit ID, base64url. */
  id: string;
  /** The unmasked CSRF token: 32 random bytes, base64url. Never sent to clients as is. */
  csrf: string;
  /** When the session started (reset by regenerate); SESSION_MAX_LIFETIME counts from here. */
  startedAt: number;
  /** When it was last written; SESSION_LIFETIME (idle) counts from here. */
  lastUsedAt: number;
  /** Application values (JSON). */
  values: Record<string, unknown>;
  /** Values flashed for the next request. */
  flash: Record<string, unknown>;
  /** The signed-in user's authentication ID (set by the accounts layer), or null. */
  userId: string | null;
  /** A fingerprint of the user's password hash (set by the accounts layer), or null. */
  fingerprint: string | null;
}

/** A fresh random ID (16 bytes, base64url). */
export function newSessionId(): string {
  return randomBytes(16).toString('base64url');
}

/** A fresh unmasked CSRF token (32 bytes, base64url; masked for pages by `runtime/crypto/masked-token.ts`). */
export function newCsrfToken(): string {
  return newMaskableSecret();
}

/** A new, empty session started at `now`. */
export function newSessionRecord(now: number): SessionRecord {
  return {
    id: newSessionId(),
    csrf: newCsrfToken(),
    startedAt: now,
    lastUsedAt: now,
    values: {},
    flash: {},
    userId: null,
    fingerprint: null,
  };
}

/**
 * Whether the record holds nothing but what is passed on from one request to
 * the next: no signed-in user and no values, only (at most) flash data — a
 * guest's failed form (its errors and old input), a status message. A
 * server-side store may keep such a record in the cookie instead of a row
 * (docs/sessions.md "Drivers").
 */
export function recordIsFlashOnly(record: SessionRecord): boolean {
  return record.userId === null && isEmptyObject(record.values);
}

/**
 * The compact JSON of a record: `{"i","c","s","u","v","f","a"}`; `v`, `f`
 * and `a` are left out when empty.
 * @throws {TypeError} when a value cannot be serialized as JSON (a BigInt, a cycle).
 */
export function serializeRecord(record: SessionRecord): string {
  const out: Record<string, unknown> = { i: record.id, c: record.csrf, s: record.startedAt, u: record.lastUsedAt };
  if (!isEmptyObject(record.values)) out.v = record.values;
  if (!isEmptyObject(record.flash)) out.f = record.flash;
  if (record.userId !== null) out.a = [record.userId, record.fingerprint];
  return JSON.stringify(out);
}

/** Parse {@link serializeRecord}'s output (text or an already parsed object); `null` when it is not a record. Never throws. */
export function parseRecord(input: string | unknown): SessionRecord | null {
  let raw: unknown = input;
  if (typeof input === 'string') {
    try {
      raw = JSON.parse(input);
    } catch {
      return null;
    }
  }
  if (typeof raw !== 'object' || raw === null) return null;
  const r = raw as Record<string, unknown>;
  if (typeof r.i !== 'string' || typeof r.c !== 'string' || typeof r.s !== 'number' || typeof r.u !== 'number') return null;
  const values = r.v === undefined ? {} : r.v;
  const flash = r.f === undefined ? {} : r.f;
  if (!isPlainObject(values) || !isPlainObject(flash)) return null;
  let userId: string | null = null;
  let fingerprint: string | null = null;
  if (r.a !== undefined) {
    if (!Array.isArray(r.a) || typeof r.a[0] !== 'string' || (r.a[1] !== null && typeof r.a[1] !== 'string')) return null;
    userId = r.a[0];
    fingerprint = r.a[1] as string | null;
  }
  return { id: r.i, csrf: r.c, startedAt: r.s, lastUsedAt: r.u, values, flash, userId, fingerprint };
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isEmptyObject(o: Record<string, unknown>): boolean {
  for (const _ in o) return false;
  return true;
}
