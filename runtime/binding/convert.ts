/**
 * Value conversions of bound fields (docs/spec.md 4.5 "Conversions").
 *
 * Two families: from JSON values (typed already: strict about types) and
 * from text (query, form, header and path values). Each returns the
 * converted value, {@link INVALID} when the value cannot be converted, or
 * {@link ABSENT} when it counts as not sent (an empty text value of a
 * non-string kind). See docs/http.md for the accepted spellings.
 */
import type { ScalarKind, UploadedFile } from '../routing/route-table.js';
import { parseDuration } from '../support/duration.js';
import { parseTimestamp } from './timestamp.js';

/** Marks a value that cannot be converted. */
export const INVALID: unique symbol = Symbol('bindery.invalid');
/** Marks a value that counts as not sent. */
export const ABSENT: unique symbol = Symbol('bindery.absent');

const INTEGER = /^[+-]?\d+$/;
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

const BOOLEANS: Readonly<Record<string, boolean>> = {
  true: true,
  '1': true,
  on: true,
  yes: true,
  false: false,
  '0': false,
  off: false,
  no: false,
};

/**
 * Convert one JSON value (not `null`, not a list) to `kind`.
 * Strings for `string`; safe integers for `integer`; numbers for `number`;
 * `true`/`false` for `boolean`; a duration text or a number of milliseconds
 * for `duration`; an RFC 3339 string for `timestamp`; anything for `json`;
 * never a `file`.
 */
export function fromJson(kind: ScalarKind, value: unknown): unknown {
  switch (kind) {
    case 'string':
      return typeof value === 'string' ? value : INVALID;
    case 'integer':
      return typeof value === 'number' && Number.isSafeInteger(value) ? value : INVALID;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? value : INVALID;
    case 'boolean':
      return typeof value === 'boolean' ? value : INVALID;
    case 'duration':
      if (typeof value === 'number') return Number.isFinite(value) ? value : INVALID;
      return typeof value === 'string' ? (parseDuration(value) ?? INVALID) : INVALID;
    case 'timestamp':
      return typeof value === 'string' ? (parseTimestamp(value) ?? INVALID) : INVALID;
    case 'json':
      return value;
    case 'file':
      return INVALID;
  }
}

/**
 * Convert one text value to `kind`. An empty text of any kind but `string`
 * (and `json`) is {@link ABSENT}. Integers: optional sign and digits, safe
 * range. Numbers: decimal with optional fraction and exponent, finite.
 * Booleans: true/false/1/0/on/off/yes/no in any case. Durations:
 * `parseDuration` (`90s`, `1h30m`, `PT1H`; a bare number is refused).
 * Timestamps: strict RFC 3339. `json`: the text as is. Never a `file`.
 */
export function fromText(kind: ScalarKind, text: string): unknown {
  if (text === '' && kind !== 'string' && kind !== 'json') return ABSENT;
  switch (kind) {
    case 'string':
    case 'json':
      return text;
    case 'integer': {
      if (!INTEGER.test(text)) return INVALID;
      const n = Number(text);
      return Number.isSafeInteger(n) ? n : INVALID;
    }
    case 'number': {
      if (!NUMBER.test(text)) return INVALID;
      const n = Number(text);
      return Number.isFinite(n) ? n : INVALID;
    }
    case 'boolean': {
      const b = BOOLEANS[text.toLowerCase()];
      return b === undefined ? INVALID : b;
    }
    case 'duration':
      return parseDuration(text) ?? INVALID;
    case 'timestamp':
      return parseTimestamp(text) ?? INVALID;
    case 'file':
      return INVALID;
  }
}

/** True for an uploaded file (multipart part with a filename). */
export function isUploadedFile(value: unknown): value is UploadedFile {
  return typeof value === 'object' && value !== null && typeof (value as UploadedFile).checksum === 'string' && 'stored' in value;
}

const EXPECTED: Readonly<Record<ScalarKind, string>> = {
  string: 'must be a string',
  integer: 'must be an integer',
  number: 'must be a number',
  boolean: 'must be true or false',
  duration: 'must be a duration such as 90s, 15m or 1h30m',
  timestamp: 'must be an RFC 3339 date-time such as 2024-05-01T12:00:00Z',
  file: 'must be a file',
  json: 'must be valid JSON',
  object: 'must be an object',
};

/**
 * The message of a conversion failure (docs/spec.md 4.5 step 3).
 * @param attribute the client's name with `_` as spaces, `tags.1` for an item.
 * @param notAList the value of a list field was not a list.
 * @example conversionMessage('integer', 'limit') // "The limit field must be an integer."
 */
export function conversionMessage(kind: ScalarKind, attribute: string, notAList = false): string {
  return notAList ? `The ${attribute} field must be a list.` : `The ${attribute} field ${EXPECTED[kind]}.`;
}
