/**
 * bindery's column types as PostgreSQL types (docs/database.md "Engines"):
 * what the migrations declare and what the runtime casts values to. Pure, so
 * the generator's migration emitter reads it too.
 *
 * | column type | PostgreSQL |
 * |---|---|
 * | `string(n)` | `varchar(n)` |
 * | `string`, `text` | `text` |
 * | `integer`, `bigint` | `integer`, `bigint` |
 * | `float` | `double precision` |
 * | `boolean` | `boolean` |
 * | `timestamp` | `timestamptz` |
 * | `json` | `jsonb` |
 * | `uuid` | `uuid` |
 * | `T[]` | the item type followed by `[]` |
 */
import { parseColumnType, type ColumnBase, type ColumnTypeText } from '../../column-type.js';

const BASE: Readonly<Record<ColumnBase, string>> = {
  string: 'text',
  text: 'text',
  integer: 'integer',
  bigint: 'bigint',
  float: 'double precision',
  boolean: 'boolean',
  timestamp: 'timestamptz',
  json: 'jsonb',
  uuid: 'uuid',
};

/**
 * The PostgreSQL type of a column type: `string(200)` → `varchar(200)`, `timestamp` → `timestamptz`.
 * @throws {TypeError} when `type` is not a column type (a generated file older than this bindery: regenerate it).
 */
export function postgresType(type: ColumnTypeText): string {
  const parsed = parseColumnType(type);
  if (parsed === undefined)
    throw new TypeError(`"${type}" is not a bindery column type; run "bindery generate" to rewrite the generated files.`);
  const base = parsed.base === 'string' && parsed.max !== undefined ? `varchar(${parsed.max})` : BASE[parsed.base];
  return parsed.array ? `${base}[]` : base;
}

/** PostgreSQL type names back to column types (`schema.snapshot.json` files written before the column types). */
const FROM_POSTGRES: ReadonlyMap<string, ColumnTypeText> = new Map([
  ['text', 'string'],
  ['integer', 'integer'],
  ['bigint', 'bigint'],
  ['double precision', 'float'],
  ['boolean', 'boolean'],
  ['timestamptz', 'timestamp'],
  ['jsonb', 'json'],
  ['uuid', 'uuid'],
]);

/**
 * The column type of a PostgreSQL type name as bindery wrote it (`varchar(200)`, `timestamptz`, `text[]`).
 * @returns `undefined` for a type bindery never writes.
 */
export function columnTypeOfPostgres(type: string): ColumnTypeText | undefined {
  const array = type.endsWith('[]');
  const base = array ? type.slice(0, -2) : type;
  const varchar = /^varchar\((\d+)\)$/.exec(base);
  const neutral = varchar ? `string(${varchar[1]})` : FROM_POSTGRES.get(base);
  return neutral === undefined ? undefined : array ? `${neutral}[]` : neutral;
}
