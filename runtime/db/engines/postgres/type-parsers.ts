/**
 * Per-pool type parsers (docs/database.md "Types"): `int8`/`bigint` (and
 * `int8[]`) are read as JavaScript numbers when they are safe integers; an
 * unsafe value fails the query with {@link UnsafeIntegerError} instead of
 * silently losing precision. Everything else keeps pg's defaults (`numeric`
 * stays a string, `timestamptz` a `Date`). Installed per pool through pg's
 * `types` option, so no global state changes.
 */
import pg from 'pg';
import { UnsafeIntegerError } from '../../errors.js';

const INT8 = 20;
const INT8_ARRAY = 1016;

/**
 * Parse the text of an `int8`.
 * @throws {UnsafeIntegerError} beyond `Number.MAX_SAFE_INTEGER` in magnitude.
 */
export function parseInt8(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new UnsafeIntegerError(text);
  return n;
}

type Nested = null | string | Nested[];
const mapNested = (v: Nested): unknown => (v === null ? null : Array.isArray(v) ? v.map(mapNested) : parseInt8(v));

/** `int8[]` text → numbers (nested arrays and NULLs kept), made once: pg asks for a parser per field of every query. */
let int8ArrayParser: ((text: string) => unknown) | undefined;

function parseInt8Array(): (text: string) => unknown {
  if (int8ArrayParser === undefined) {
    const arrayParser = (pg.types.getTypeParser as (oid: number, format: 'text') => unknown)(INT8_ARRAY, 'text') as (
      text: string,
    ) => Nested;
    int8ArrayParser = (text: string) => mapNested(arrayParser(text));
  }
  return int8ArrayParser;
}

/** The `types` option of a pg `Pool`/`Client`: int8 → number (safe only), the rest as pg does. */
export const binderyTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (format !== 'binary') {
      if (oid === INT8) return parseInt8;
      if (oid === INT8_ARRAY) return parseInt8Array();
    }
    return pg.types.getTypeParser(oid, format ?? 'text');
  }) as pg.CustomTypesConfig['getTypeParser'],
};
