/**
 * How MySQL's audit writer writes an entry's JSON (docs/audit.md "Engines"):
 * the values of columns as PostgreSQL's strategy records them (`to_jsonb` of
 * the column) and the members of objects in PostgreSQL's `jsonb` order, so
 * an entry reads the same on both engines.
 *
 * - an instant (`DATETIME`, `TIMESTAMP`) is `2025-11-21T10:12:03.412345+00:00`,
 *   trailing zeros of the fraction left out (`…:03+00:00` for a whole second),
 *   read from the server's text of it (microseconds kept);
 * - a `DATE` is `2025-11-21`; a `DECIMAL` a JSON number with its digits as
 *   stored; bytes are `\x` and their hex digits;
 * - numbers, text, booleans (`TINYINT(1)`), JSON documents and lists as they are
 *   (an integral double beyond 2^53 in exponent form, so that it is read back as a number);
 * - object members sorted shorter names first, then byte by byte (jsonb's order),
 *   nested documents too.
 */

/** A value already written as JSON text (a `DECIMAL`'s digits): put in the document as it is. */
export class RawJson {
  constructor(readonly text: string) {}
}

/** A value of an entry: what JSON holds, or {@link RawJson}. */
export type EntryValue = unknown;

const DECIMAL = /^-?\d+(?:\.\d+)?$/;

/** A `DECIMAL` as read (mysql2 reads it as text, exactly) as a JSON number with the same digits. */
export function decimalJson(text: string): EntryValue {
  return DECIMAL.test(text) ? new RawJson(text) : text;
}

/** Bytes as PostgreSQL's JSON of `bytea`: `\x` and the hex digits. */
export function bytesJson(value: Buffer): string {
  return `\\x${value.toString('hex')}`;
}

/**
 * An instant as the server writes it (`DATE_FORMAT(…, '%Y-%m-%dT%H:%i:%s.%f')`
 * of a UTC `DATETIME(6)`) as PostgreSQL's JSON of a `timestamptz` in UTC:
 * the fraction without its trailing zeros, then `+00:00`.
 */
export function instantJson(text: string): string {
  const dot = text.indexOf('.');
  if (dot < 0) return `${text}+00:00`;
  const fraction = text.slice(dot + 1).replace(/0+$/, '');
  return `${text.slice(0, dot)}${fraction === '' ? '' : `.${fraction}`}+00:00`;
}

/** jsonb's order of object members: shorter names (in bytes) first, then byte by byte. */
function memberOrder(a: string, b: string): number {
  const la = Buffer.byteLength(a);
  const lb = Buffer.byteLength(b);
  if (la !== lb) return la - lb;
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/**
 * `value` as JSON text, object members in jsonb's order at every depth,
 * {@link RawJson} as written, `undefined` as null, dates as RFC 3339,
 * bigints as their digits.
 */
export function jsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Buffer.isBuffer(value)) return JSON.stringify(bytesJson(value));
  if (Array.isArray(value)) return `[${value.map(jsonText).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => memberOrder(a, b));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${jsonText(v)}`).join(',')}}`;
  }
  // An integral double beyond 2^53 in exponent form: as an integer, MySQL's JSON reader would give its digits as text.
  if (typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value)) return value.toExponential();
  return JSON.stringify(value) ?? 'null';
}

/** `value` as JSON text, or SQL NULL for null. */
export function jsonOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : jsonText(value);
}
