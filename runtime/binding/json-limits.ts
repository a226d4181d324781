/**
 * Depth and key-count limits of request bodies (docs/http.md "Body limits";
 * settings `HTTP_MAX_JSON_DEPTH`, `HTTP_MAX_JSON_KEYS`).
 *
 * A JSON body is scanned before `JSON.parse` turns it into objects: one pass
 * over the text that tracks strings, the nesting and the count of keys and
 * items, and stops at the first limit passed — a 10 MB `[[[[…` is refused
 * after 33 characters, a body of a million keys after 10,001, without a
 * single object made. Keys are object members and array items (an array's
 * indices are its keys). A URL-encoded form's fields count the same way
 * (`a=1&b=2` has two).
 */
import { HttpError } from '../errors/http-error.js';

/** The limits, from the settings. */
export interface BodyShapeLimits {
  /** `HTTP_MAX_JSON_DEPTH`: nested objects and arrays, the body itself counting 1. */
  readonly maxDepth: number;
  /** `HTTP_MAX_JSON_KEYS`: object members and array items in the whole body; fields of a form. */
  readonly maxKeys: number;
}

/** `HTTP_MAX_JSON_DEPTH` by default. */
export const DEFAULT_MAX_JSON_DEPTH = 32;
/** `HTTP_MAX_JSON_KEYS` by default. */
export const DEFAULT_MAX_JSON_KEYS = 10_000;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;

// The scan's per-level flags, kept between calls (the scan is synchronous): no array per body.
let levels = new Uint8Array(DEFAULT_MAX_JSON_DEPTH + 1);

/**
 * Check the nesting and key count of JSON text without parsing it. Malformed
 * JSON is not reported here (`JSON.parse` does that next); the scan only
 * promises to stop at the first limit passed.
 * @returns `undefined` within the limits, else the error to answer: 400
 *   `BINDERY_JSON_TOO_DEEP` or 413 `BINDERY_JSON_TOO_MANY_KEYS`.
 */
export function checkJsonShape(text: string, limits: BodyShapeLimits): HttpError | undefined {
  const { maxDepth, maxKeys } = limits;
  // 1 for an array, 0 for an object, per open level (a level is written when opened, before it is read).
  if (levels.length < maxDepth + 1) levels = new Uint8Array(maxDepth + 1);
  const arrays = levels;
  let depth = 0;
  let keys = 0;
  let firstItem = false;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c <= 0x20) continue;
    if (firstItem) {
      firstItem = false;
      if (c !== CLOSE_ARRAY && ++keys > maxKeys) return tooManyKeys(maxKeys);
    }
    if (c === QUOTE) {
      i = stringEnd(text, i);
      continue;
    }
    if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > maxDepth) return tooDeep(maxDepth);
      const array = c === OPEN_ARRAY;
      arrays[depth] = array ? 1 : 0;
      firstItem = array;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      if (depth > 0) depth--;
    } else if (c === COLON) {
      if (++keys > maxKeys) return tooManyKeys(maxKeys);
    } else if (c === COMMA && depth > 0 && arrays[depth] === 1) {
      if (++keys > maxKeys) return tooManyKeys(maxKeys);
    }
  }
  return undefined;
}

/** The index of the quote closing the string that opens at `start` (or the last index when it never closes). */
function stringEnd(text: string, start: number): number {
  let at = start + 1;
  for (;;) {
    const quote = text.indexOf('"', at);
    if (quote === -1) return text.length - 1;
    // Escaped when preceded by an odd run of backslashes.
    let slashes = 0;
    for (let k = quote - 1; k > start && text.charCodeAt(k) === BACKSLASH; k--) slashes++;
    if (slashes % 2 === 0) return quote;
    at = quote + 1;
  }
}

/**
 * Check the field count of a URL-encoded form (`&`-separated pairs) without parsing it.
 * @returns `undefined` within `maxKeys`, else 413 `BINDERY_JSON_TOO_MANY_KEYS`.
 */
export function checkFormShape(body: Buffer, limits: BodyShapeLimits): HttpError | undefined {
  let fields = body.length > 0 ? 1 : 0;
  for (let at = body.indexOf(0x26); at !== -1; at = body.indexOf(0x26, at + 1)) {
    if (++fields > limits.maxKeys) return tooManyKeys(limits.maxKeys, 'form');
  }
  return undefined;
}

function tooDeep(maxDepth: number): HttpError {
  return new HttpError(
    'BINDERY_JSON_TOO_DEEP',
    `The JSON body nests objects and arrays more than ${maxDepth} levels deep (HTTP_MAX_JSON_DEPTH).`,
  );
}

function tooManyKeys(maxKeys: number, kind: 'json' | 'form' = 'json'): HttpError {
  return new HttpError(
    'BINDERY_JSON_TOO_MANY_KEYS',
    kind === 'json'
      ? `The JSON body has more than ${maxKeys} keys and items (HTTP_MAX_JSON_KEYS).`
      : `The form body has more than ${maxKeys} fields (HTTP_MAX_JSON_KEYS).`,
  );
}
