/**
 * Snapshots of version 1 (`schema.snapshot.json` before bindery's column
 * types): written when bindery spoke only PostgreSQL, they hold PostgreSQL
 * types (`varchar(200)`, `timestamptz`), default SQL (`now()`,
 * `'…'::jsonb`) and the partial-index condition `"deleted_at" IS NULL`.
 * Read into bindery's own terms, so an existing project's next `generate`
 * compares them with its schema (by the engine's types: `text` was both
 * `string` and `text`) and writes no migration for what did not change.
 */
import { columnTypeOfPostgres } from '../../../../../runtime/db/engines/postgres/column-types.js';
import type { ColumnSnapshot, IndexSnapshot, TableSnapshot } from '../../snapshot-types.js';
import { LIVE_ROWS } from './ddl.js';
import { readDefault } from './defaults.js';

interface ColumnV1 {
  readonly type: string;
  readonly nullable: boolean;
  readonly default?: string;
  readonly identity?: boolean;
  readonly primaryKey?: boolean;
  readonly values?: readonly string[];
}

interface IndexV1 {
  readonly columns: readonly string[];
  readonly unique: boolean;
  readonly where?: string;
}

/**
 * The tables of a version-1 snapshot in bindery's own terms.
 * @returns the tables, or a message naming the first column or index it cannot read.
 */
export function tablesOfVersion1(tables: Readonly<Record<string, unknown>>): Record<string, TableSnapshot> | string {
  const out: Record<string, TableSnapshot> = {};
  for (const [table, value] of Object.entries(tables)) {
    const t = value as {
      columns?: Record<string, ColumnV1>;
      indexes?: Record<string, IndexV1>;
      foreignKeys?: TableSnapshot['foreignKeys'];
    };
    const columns: Record<string, ColumnSnapshot> = {};
    for (const [name, c] of Object.entries(t.columns ?? {})) {
      const column = columnOf(c);
      if (column === undefined) return `the column ${table}.${name} (${JSON.stringify(c)}) is not one bindery wrote`;
      columns[name] = column;
    }
    const indexes: Record<string, IndexSnapshot> = {};
    for (const [name, i] of Object.entries(t.indexes ?? {})) {
      if (i.where !== undefined && i.where !== LIVE_ROWS) return `the condition of index ${name} (${i.where}) is not one bindery wrote`;
      indexes[name] = { columns: i.columns, unique: i.unique, ...(i.where !== undefined ? { live: true } : {}) };
    }
    out[table] = { columns, indexes, foreignKeys: t.foreignKeys ?? {} };
  }
  return out;
}

function columnOf(c: ColumnV1): ColumnSnapshot | undefined {
  const type = typeof c.type === 'string' ? columnTypeOfPostgres(c.type) : undefined;
  if (type === undefined) return undefined;
  const value = typeof c.default === 'string' ? readDefault(c.default, type) : undefined;
  if (c.default !== undefined && value === undefined) return undefined;
  return {
    type,
    nullable: c.nullable,
    ...(value !== undefined ? { default: value } : {}),
    ...(c.identity ? { identity: true } : {}),
    ...(c.primaryKey ? { primaryKey: true } : {}),
    ...(c.values !== undefined ? { values: c.values } : {}),
  };
}
