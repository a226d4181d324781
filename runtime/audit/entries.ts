/**
 * What every write of the log shares, whatever the engine: key checks,
 * JSON-safe values and the mapping of the log's own constraint errors.
 */
import { classifyDriverError } from '../db/database-errors.js';
import { AuditKeyTooLongError, AuditModelError } from './errors.js';
import type { ResolvedModel } from './tracked-config.js';

/** Keys are at most this many bytes as text (docs/spec.md 6.1 rule 9). */
export const MAX_KEY_BYTES = 255;

/** Rows per chunk of a bulk write (docs/spec.md 6.1 rule 3, 8). */
export const BULK_CHUNK = 1000;

/**
 * Refuse a key longer than 255 bytes as text.
 * @throws {AuditKeyTooLongError}
 */
export function checkKey(model: ResolvedModel, key: unknown): void {
  const text = String(key);
  if (Buffer.byteLength(text) > MAX_KEY_BYTES) throw new AuditKeyTooLongError(model.table, text);
}

/**
 * Rethrow a database error of a write, turning the log's own key-length
 * checks into {@link AuditKeyTooLongError} (a generated key can only be
 * checked by the database).
 */
export function rethrowWriteError(model: ResolvedModel, error: unknown): never {
  const info = classifyDriverError(error);
  if (info?.kind === 'check-violation' && info.constraint?.endsWith('subject_id_length') === true) {
    throw new AuditKeyTooLongError(model.table, undefined, { cause: error });
  }
  throw error;
}

/** A value as JSON for the log: dates as RFC 3339, bigints and buffers as text, the rest as JSON would. */
export function jsonSafe(value: unknown): unknown {
  if (value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'bigint') return value.toString();
  if (Buffer.isBuffer(value)) return value.toString('base64');
  if (Array.isArray(value)) return value.map(jsonSafe);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, jsonSafe(v)]));
  }
  return value;
}

/** Entries name rows by key, so a tracked row's key never changes. */
export function keyChange(model: ResolvedModel): AuditModelError {
  return new AuditModelError(
    `The key "${model.pk}" of a ${model.config.resource} row cannot be changed by an update: audit entries name rows by their key. Create a new row and delete the old one instead.`,
  );
}
