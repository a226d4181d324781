/**
 * Checking and normalizing `default:` values of resource fields (column
 * defaults) and input fields (binding defaults; docs/schema-language.md "Input fields").
 */
import { parseDuration } from '../../runtime/support/duration.js';
import type { FieldTypePlan } from '../../runtime/routing/route-table.js';
import { show } from '../load/ajv-messages.js';
import type { ColumnDefault, ColumnType, JsonValue } from './model.js';

/** A converted value, or what is wrong with it. */
export type Converted<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string };

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const INT32 = 2 ** 31;

type ScalarKind = 'string' | 'uuid' | 'integer' | 'int32' | 'number' | 'boolean' | 'duration' | 'timestamp' | 'json';

/**
 * The column default of a resource field of `type`: `now` (timestamps), `[]`
 * or a list (lists), `null` (nullable fields) or a literal of the type.
 * Durations become milliseconds, timestamps RFC 3339 UTC text.
 */
export function columnDefault(type: ColumnType, raw: unknown): Converted<ColumnDefault> {
  if (raw === 'now' && type.kind === 'timestamp' && !type.array) return { ok: true, value: { kind: 'now' } };
  if (type.kind === 'file')
    return {
      ok: false,
      message: 'a file field cannot have a default; remove "default" (a nullable file field is null until a file is attached)',
    };
  const scalar: ScalarKind =
    type.kind === 'text' ? 'string' : type.kind === 'bigint' ? 'integer' : type.kind === 'integer' ? 'int32' : type.kind;
  const converted = convert(scalar, type.array, type.nullable, raw, type.max);
  return converted.ok ? { ok: true, value: { kind: 'value', value: converted.value } } : converted;
}

/**
 * The binding default of an input field of `type`, in the bound form the
 * runtime uses (durations in milliseconds, timestamps as RFC 3339 text).
 */
export function inputDefault(type: FieldTypePlan, raw: unknown): Converted<JsonValue> {
  if (type.kind === 'file') return { ok: false, message: 'a file field cannot have a default; remove "default"' };
  if (type.kind === 'object') return { ok: false, message: 'an object field cannot have a default; give its fields defaults instead' };
  return convert(type.kind, type.array, type.nullable, raw, undefined);
}

function convert(kind: ScalarKind, array: boolean, nullable: boolean, raw: unknown, max: number | undefined): Converted<JsonValue> {
  if (raw === null) {
    return nullable
      ? { ok: true, value: null }
      : { ok: false, message: 'default is null but the field is not nullable; add "nullable: true" or give a value' };
  }
  if (!array) return scalar(kind, raw, max);
  if (!Array.isArray(raw)) return { ok: false, message: `default of a list field must be a list (e.g. []), got ${show(raw)}` };
  const items: JsonValue[] = [];
  for (const item of raw as unknown[]) {
    const c = scalar(kind, item, max);
    if (!c.ok) return { ok: false, message: `default item ${show(item)}: ${c.message}` };
    items.push(c.value);
  }
  return { ok: true, value: items };
}

function scalar(kind: ScalarKind, raw: unknown, max: number | undefined): Converted<JsonValue> {
  const bad = (expected: string): Converted<JsonValue> => ({ ok: false, message: `default must be ${expected}, got ${show(raw)}` });
  switch (kind) {
    case 'string':
      if (typeof raw !== 'string') return bad('a string');
      if (max !== undefined && [...raw].length > max) return bad(`a string of at most ${max} characters (the field's max)`);
      return { ok: true, value: raw };
    case 'uuid':
      return typeof raw === 'string' && UUID.test(raw) ? { ok: true, value: raw.toLowerCase() } : bad('a UUID');
    case 'int32':
      return Number.isInteger(raw) && Math.abs(raw as number) < INT32
        ? { ok: true, value: raw as number }
        : bad('a whole number from -2147483648 to 2147483647');
    case 'integer':
      return Number.isSafeInteger(raw) ? { ok: true, value: raw as number } : bad('a whole number');
    case 'number':
      return typeof raw === 'number' && Number.isFinite(raw) ? { ok: true, value: raw } : bad('a number');
    case 'boolean':
      return typeof raw === 'boolean' ? { ok: true, value: raw } : bad('true or false');
    case 'duration': {
      const ms = typeof raw === 'number' ? raw : typeof raw === 'string' ? parseDuration(raw) : undefined;
      return ms !== undefined && Number.isSafeInteger(ms)
        ? { ok: true, value: ms }
        : bad('a duration like "15m" or "1h30m" (whole milliseconds), or a number of milliseconds');
    }
    case 'timestamp':
      return typeof raw === 'string' && RFC3339.test(raw) && !Number.isNaN(Date.parse(raw))
        ? { ok: true, value: new Date(raw).toISOString() }
        : bad(
            'an RFC 3339 date-time like "2024-01-31T12:00:00Z"' +
              (raw === 'now' ? ' ("now" is only for timestamp fields of resources)' : ''),
          );
    case 'json':
      return { ok: true, value: raw as JsonValue };
  }
}
