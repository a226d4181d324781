/**
 * MySQL's and MariaDB's answers to the SQL pieces of the seam (`EngineSql`,
 * docs/database.md "MySQL and MariaDB"): casts to bindery's column types,
 * the exact text of a sort key (the same as PostgreSQL's for the same value),
 * counts and containment. The same SQL runs on both servers.
 *
 * MySQL's `CAST` knows few target types (`CHAR`, `SIGNED`, `DATETIME(n)`,
 * `JSON` on MySQL only), so each column type has its own form; values known
 * when the query is built (not an expression, not a compiled query's
 * stand-in) are put in the form the server reads exactly — an instant as UTC
 * text with its microseconds, a list item as JSON.
 */
import { isExpression, sql, type Expression, type RawBuilder } from 'kysely';
import { itemType as itemOf, parseColumnType, type ColumnTypeText, type ParsedColumnType } from '../../column-type.js';
import type { EngineSql } from '../../engine.js';
import { utcInstantParts } from '../../instant-text.js';

/** UTC (what a `DATETIME(6)` holds), microseconds, a `Z`: the text of an instant every engine writes alike. */
const INSTANT_FORMAT = sql.raw(`'%Y-%m-%dT%H:%i:%s.%fZ'`);

/** The texts PostgreSQL reads as true (compared lower-cased). */
const TRUE_TEXTS = sql.raw(`('1', 't', 'true', 'y', 'yes', 'on')`);

function parsed(type: ColumnTypeText): ParsedColumnType {
  const p = parseColumnType(type);
  if (p === undefined)
    throw new TypeError(`"${type}" is not a bindery column type; run "bindery generate" to rewrite the generated files.`);
  return p;
}

/** The SQL pieces on MySQL and MariaDB. */
export const mysqlSql: EngineSql = {
  cast: (value, type) => castTo(value, parsed(type)),
  sortKeyText(column: Expression<unknown>, type: ColumnTypeText) {
    const p = parsed(type);
    if (p.array) return sql<string>`cast(${column} as char)`;
    switch (p.base) {
      case 'timestamp':
        return sql<string>`date_format(${column}, ${INSTANT_FORMAT})`;
      case 'string':
      case 'text':
      case 'uuid':
        return sql<string>`${column}`;
      case 'boolean':
        return sql<string>`(case when ${column} is null then null when ${column} then 'true' else 'false' end)`;
      default:
        return sql<string>`cast(${column} as char)`;
    }
  },
  countAll: () => sql<number>`count(*)`,
  listContains(column, value, type) {
    const item = parsed(itemOf(type));
    if (isExpression(value) || !isPlainValue(value)) return sql<boolean>`json_contains(${column}, json_array(${castTo(value, item)}))`;
    return sql<boolean>`json_contains(${column}, ${jsonListOf(value, item)})`;
  },
  textContains: (column, value) => sql<boolean>`(locate(${value}, ${column}) > 0)`,
};

/** `value` as a value of the column type `type`. */
function castTo(value: unknown, type: ParsedColumnType): RawBuilder<unknown> {
  if (type.array || type.base === 'json') return sql`json_extract(${jsonText(value)}, '$')`;
  switch (type.base) {
    case 'string':
    case 'text':
    case 'uuid':
      // No CAST for a value: a parameter takes the column's collation, where `CAST(? AS CHAR)` would clash with it.
      return isExpression(value) ? sql`cast(${value} as char)` : sql`${textOf(value)}`;
    case 'integer':
    case 'bigint':
      return sql`cast(${value} as signed)`;
    case 'float':
      // CAST(… AS DOUBLE) needs MySQL 8.0.17; adding a double zero works on every version.
      return sql`(0e0 + ${value})`;
    case 'boolean':
      return sql`(lower(${value}) in ${TRUE_TEXTS})`;
    case 'timestamp':
      return instantOf(value);
  }
}

/** A value known now (not an expression, not a compiled query's stand-in). */
function isPlainValue(value: unknown): boolean {
  const t = typeof value;
  return value === null || t === 'string' || t === 'number' || t === 'bigint' || t === 'boolean' || value instanceof Date;
}

function textOf(value: unknown): unknown {
  const t = typeof value;
  return t === 'number' || t === 'bigint' || t === 'boolean' ? String(value) : value;
}

/** Text read as JSON: a JavaScript value (not a string, which is JSON text already) as its JSON. */
function jsonText(value: unknown): unknown {
  if (value === null || value === undefined || typeof value === 'string' || isExpression(value)) return value;
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value) || value instanceof Date || typeof value !== 'object') return JSON.stringify(value);
  return Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null ? JSON.stringify(value) : value;
}

/** `[item]` as JSON text, the item read as the list's item type (`'5'` in an integer list is 5). */
function jsonListOf(value: unknown, item: ParsedColumnType): string {
  if (typeof value === 'bigint') return `[${value}]`;
  if (typeof value === 'string') {
    if ((item.base === 'integer' || item.base === 'bigint') && /^-?\d+$/.test(value)) return `[${value}]`;
    if (item.base === 'float' && value.trim() !== '' && Number.isFinite(Number(value))) return `[${Number(value)}]`;
    if (item.base === 'boolean') return `[${/^(1|t|true|y|yes|on)$/i.test(value)}]`;
  }
  return JSON.stringify([value]);
}

/** `CAST(… AS DATETIME(6))` of an instant: a `Date` or ISO 8601 text is sent as its UTC text, microseconds kept. */
function instantOf(value: unknown): RawBuilder<unknown> {
  if (isExpression(value)) return sql`cast(${value} as datetime(6))`;
  if (value instanceof Date) return sql`cast(${utcDateText(value)} as datetime(6))`;
  if (typeof value === 'string') return sql`cast(${utcText(value)} as datetime(6))`;
  if (value === null || value === undefined) return sql`cast(${value ?? null} as datetime(6))`;
  // A stand-in for a value given later (a compiled query): the text of a sort key ends in Z, which the server does not read.
  return sql`cast(trim(trailing 'Z' from ${value}) as datetime(6))`;
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** `YYYY-MM-DD HH:MM:SS.mmm` in UTC. */
function utcDateText(date: Date): string {
  if (Number.isNaN(date.getTime())) throw new RangeError('An invalid Date cannot be written as a timestamp.');
  return `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ${pad(date.getUTCHours())}:${pad(
    date.getUTCMinutes(),
  )}:${pad(date.getUTCSeconds())}.${pad(date.getUTCMilliseconds(), 3)}`;
}

/**
 * ISO 8601 text as UTC `YYYY-MM-DD HH:MM:SS.ffffff` (`utcInstantParts`: an
 * offset applied, the fraction kept as written). Text that is no instant is
 * returned unchanged (the server then says what is wrong).
 */
export function utcText(text: string): string {
  const parts = utcInstantParts(text);
  return parts === undefined ? text : `${parts.day} ${parts.time}${parts.fraction}`;
}
