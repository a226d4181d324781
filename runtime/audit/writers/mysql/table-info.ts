/**
 * What MySQL's audit writer needs to know of a tracked table beyond its
 * column names (docs/audit.md "Engines"): how each column's value is
 * written in an entry (instants and dates are read as the server's text,
 * so their microseconds are kept), whether the key is `AUTO_INCREMENT`, and
 * the table's unique keys (an upsert's conflict columns must be one).
 * Read from `information_schema` once per tracked model, on the connection
 * of its first write.
 */
import { CompiledQuery } from 'kysely';
import type { Runner } from '../../sql-runner.js';
import type { ResolvedModel } from '../../tracked-config.js';

/** How a column's value is written in an entry (json.ts). */
export type ValueKind = 'plain' | 'instant' | 'date' | 'decimal' | 'bytes';

/** A tracked table as MySQL's writer sees it. */
export interface TableInfo {
  /** The kind of each column (columns of the `plain` kind may be missing). */
  readonly kinds: ReadonlyMap<string, ValueKind>;
  /** The key is `AUTO_INCREMENT`: a new row's key is `LAST_INSERT_ID()`. */
  readonly autoIncrementKey: boolean;
  /** The key holds UUIDs (`CHAR(36)`, MariaDB's `UUID`): a generated key missing from an insert is made here. */
  readonly uuidKey: boolean;
  /** The column lists of the primary key and the unique indexes, in index order. */
  readonly uniqueKeys: readonly (readonly string[])[];
}

const KINDS: Readonly<Record<string, ValueKind>> = {
  datetime: 'instant',
  timestamp: 'instant',
  date: 'date',
  decimal: 'decimal',
  binary: 'bytes',
  varbinary: 'bytes',
  tinyblob: 'bytes',
  blob: 'bytes',
  mediumblob: 'bytes',
  longblob: 'bytes',
};

const COLUMNS =
  'SELECT COLUMN_NAME AS name, DATA_TYPE AS type, COLUMN_TYPE AS full_type, EXTRA AS extra FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?';
const UNIQUE_KEYS =
  'SELECT INDEX_NAME AS name, COLUMN_NAME AS col FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND NON_UNIQUE = 0 ORDER BY INDEX_NAME, SEQ_IN_INDEX';

const INFO = new WeakMap<ResolvedModel, Promise<TableInfo>>();

/** The table of `model` (read once, through `run`: inside the write's own transaction). */
export function tableInfo(run: Runner, model: ResolvedModel): Promise<TableInfo> {
  let info = INFO.get(model);
  if (info === undefined) {
    info = readTableInfo(run, model);
    INFO.set(model, info);
    // A failed read (a lost connection) is tried again by the next write.
    info.catch(() => INFO.delete(model));
  }
  return info;
}

async function readTableInfo(run: Runner, model: ResolvedModel): Promise<TableInfo> {
  const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));
  const columns = await run.run<Record<string, unknown>>(CompiledQuery.raw(COLUMNS, [model.table]), { prepare: false });
  const kinds = new Map<string, ValueKind>();
  let autoIncrementKey = false;
  let uuidKey = false;
  for (const row of columns.rows) {
    const name = text(row.name);
    const kind = KINDS[text(row.type).toLowerCase()];
    if (kind !== undefined) kinds.set(name, kind);
    if (name === model.pk) {
      autoIncrementKey = /auto_increment/i.test(text(row.extra));
      uuidKey = /^(char\(36\)|uuid)$/i.test(text(row.full_type));
    }
  }
  const keys = new Map<string, (string | null)[]>();
  for (const row of (await run.run<Record<string, unknown>>(CompiledQuery.raw(UNIQUE_KEYS, [model.table]), { prepare: false })).rows) {
    const name = text(row.name);
    const list = keys.get(name) ?? [];
    list.push(row.col === null ? null : text(row.col));
    keys.set(name, list);
  }
  // An index over an expression (MySQL's functional key parts) names no column: no conflict target.
  const uniqueKeys = [...keys.values()].filter((list): list is string[] => list.every((c) => c !== null));
  return { kinds, autoIncrementKey, uuidKey, uniqueKeys };
}
