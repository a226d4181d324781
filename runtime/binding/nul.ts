/**
 * U+0000 in request text. PostgreSQL `text` and `jsonb` cannot hold it
 * ("invalid byte sequence for encoding UTF8: 0x00", "unsupported Unicode
 * escape sequence"), so a value carrying it would fail at the database as a
 * 500; the binder refuses it up front as a field error (docs/http.md
 * "Conversions"). The check is kept on every database engine, those that
 * could store the character included: a request gets the same answer
 * whatever the engine behind the app.
 */
import { isUploadedFile } from './convert.js';

/** The 422 message; `:attribute` becomes the client's field name. */
export const NUL_MESSAGE = 'The :attribute field must not contain a NUL character.';

/**
 * True when `value` — a string, a list, a JSON value (keys and values, at
 * any depth; walked without recursion) or an uploaded file (its file name) —
 * holds U+0000. Never throws.
 */
export function containsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\0');
  if (typeof value !== 'object' || value === null) return false;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const v = pending.pop();
    if (typeof v === 'string') {
      if (v.includes('\0')) return true;
    } else if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) pending.push(v[i]);
    } else if (typeof v === 'object' && v !== null) {
      if (isUploadedFile(v)) {
        if (v.filename.includes('\0')) return true;
        continue;
      }
      for (const key of Object.keys(v)) {
        if (key.includes('\0')) return true;
        pending.push((v as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}
