/**
 * PostgreSQL's answers to the SQL pieces of the seam (`EngineSql`,
 * docs/database.md "Engines"): casts to bindery's column types, the exact
 * text of a sort key, counts and containment.
 */
import { sql, type Expression, type RawBuilder } from 'kysely';
import { itemType, type ColumnTypeText } from '../../column-type.js';
import type { EngineSql } from '../../engine.js';
import { postgresType } from './column-types.js';

/** PostgreSQL types by column type, made once per type (the list runner asks per compiled shape). */
const TYPES = new Map<ColumnTypeText, RawBuilder<unknown>>();

function typeOf(type: ColumnTypeText): RawBuilder<unknown> {
  let raw = TYPES.get(type);
  if (raw === undefined) {
    raw = sql.raw(postgresType(type));
    TYPES.set(type, raw);
  }
  return raw;
}

/** UTC, microseconds, a `Z`: the text of an instant every engine writes alike. */
const INSTANT_FORMAT = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;

/** The SQL pieces on PostgreSQL. */
export const postgresSql: EngineSql = {
  cast: (value, type) => sql`cast(${value} as ${typeOf(type)})`,
  sortKeyText(column: Expression<unknown>, type: ColumnTypeText) {
    if (itemType(type) === 'timestamp') return sql<string>`to_char(${column} at time zone 'UTC', ${sql.raw(INSTANT_FORMAT)})`;
    return sql<string>`cast(${column} as text)`;
  },
  countAll: () => sql<number>`cast(count(*) as integer)`,
  listContains: (column, value, type) => sql<boolean>`${column} @> array[cast(${value} as ${typeOf(type)})]`,
  textContains: (column, value) => sql<boolean>`position(${value} in ${column}) > 0`,
};
