/**
 * bindery's own column types (docs/database.md "Engines"): the neutral names
 * the generator writes into the route table and `schema.snapshot.json`, and
 * each database engine turns into its SQL (`varchar(200)` on PostgreSQL,
 * `VARCHAR(200)` with a byte-exact collation on MySQL, …).
 *
 * | column type | holds |
 * |---|---|
 * | `string(n)` | text of at most n characters |
 * | `string` | text without a limit |
 * | `text` | long text |
 * | `integer`, `bigint` | 32- and 64-bit integers (durations are `bigint` milliseconds) |
 * | `float` | a double-precision number |
 * | `boolean` | true or false |
 * | `timestamp` | an instant, microseconds, kept in UTC |
 * | `json` | a JSON document (stored files' references too) |
 * | `uuid` | a UUID |
 * | `<type>[]` | a list of the type |
 *
 * A contract between the generator and the runtime: this file imports
 * nothing, so both may read it.
 */

/** The base of a column type, without its `[]`. */
export type ColumnBase = 'string' | 'text' | 'integer' | 'bigint' | 'float' | 'boolean' | 'timestamp' | 'json' | 'uuid';

/** A column type as text: `string(200)`, `timestamp`, `string(20)[]`, … */
export type ColumnTypeText = string;

/** A column type taken apart. */
export interface ParsedColumnType {
  readonly base: ColumnBase;
  /** The character limit of a `string(n)`. */
  readonly max?: number;
  /** A list of the base type. */
  readonly array: boolean;
}

const BASES: ReadonlySet<string> = new Set<ColumnBase>([
  'string',
  'text',
  'integer',
  'bigint',
  'float',
  'boolean',
  'timestamp',
  'json',
  'uuid',
]);

const SHAPE = /^([a-z]+)(?:\((\d+)\))?(\[\])?$/;

/**
 * Take a column type text apart.
 * @returns the parts, or `undefined` when `text` is not a column type (a PostgreSQL type name, a typo).
 * @example parseColumnType('string(200)[]') // { base: 'string', max: 200, array: true }
 */
export function parseColumnType(text: ColumnTypeText): ParsedColumnType | undefined {
  const m = SHAPE.exec(text);
  if (m === null || !BASES.has(m[1]!)) return undefined;
  const base = m[1] as ColumnBase;
  if (m[2] !== undefined && base !== 'string') return undefined;
  return { base, ...(m[2] === undefined ? {} : { max: Number(m[2]) }), array: m[3] !== undefined };
}

/** The text of a parsed column type (the inverse of {@link parseColumnType}). */
export function columnTypeText(type: ParsedColumnType): ColumnTypeText {
  return `${type.base}${type.max === undefined ? '' : `(${type.max})`}${type.array ? '[]' : ''}`;
}

/** The item type of a list type (`string(20)[]` → `string(20)`); a non-list type is returned unchanged. */
export function itemType(text: ColumnTypeText): ColumnTypeText {
  return text.endsWith('[]') ? text.slice(0, -2) : text;
}
