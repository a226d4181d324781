/**
 * `generated/schema.snapshot.json`: the tables as of the last generated
 * migration, in bindery's own terms (`snapshot-types.ts`). `generate`
 * compares the current model with it to write the next migration. Tables,
 * columns (in YAML order), indexes and foreign keys.
 */
import { parseColumnType } from '../../../runtime/db/column-type.js';
import type { Model, Resource, ResourceField } from '../../model/model.js';
import { jsonFile } from '../../write/header.js';
import { columnTypeOf } from '../column-type.js';
import { tablesOfVersion1 } from './dialects/postgres/index.js';
import { foreignKeyName } from './names.js';
import { SNAPSHOT_VERSION, type ColumnSnapshot, type IndexSnapshot, type Snapshot, type TableSnapshot } from './snapshot-types.js';

export type { ColumnSnapshot, DefaultSnapshot, ForeignKeySnapshot, IndexSnapshot, Snapshot, TableSnapshot } from './snapshot-types.js';
export { SNAPSHOT_VERSION } from './snapshot-types.js';

/** The tables of the model, as a snapshot would record them. */
export function tablesOf(model: Model): Record<string, TableSnapshot> {
  const tables: Record<string, TableSnapshot> = {};
  for (const resource of [...model.resources].sort((a, b) => (a.table < b.table ? -1 : 1))) {
    tables[resource.table] = tableOf(resource);
  }
  return tables;
}

function tableOf(resource: Resource): TableSnapshot {
  const columns: Record<string, ColumnSnapshot> = {};
  for (const f of resource.fields) columns[f.name] = columnOf(f);
  const indexes: Record<string, IndexSnapshot> = {};
  for (const i of resource.indexes) {
    indexes[i.name] = { columns: i.columns, unique: i.unique, ...(i.live ? { live: true } : {}) };
  }
  const foreignKeys: Record<string, TableSnapshot['foreignKeys'][string]> = {};
  for (const f of resource.fields.filter((x) => x.references).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const ref = f.references!;
    foreignKeys[foreignKeyName(resource.table, f.name)] = {
      column: f.name,
      table: ref.table,
      references: ref.column,
      onDelete: ref.onDelete,
    };
  }
  return { columns, indexes, foreignKeys };
}

function columnOf(f: ResourceField): ColumnSnapshot {
  return {
    type: columnTypeOf(f.type),
    nullable: f.type.nullable,
    ...(f.default ? { default: f.default.kind === 'value' ? { kind: 'value', value: f.default.value } : { kind: f.default.kind } } : {}),
    ...(f.identity ? { identity: true } : {}),
    ...(f.primaryKey ? { primaryKey: true } : {}),
    // Sorted: reordering the values in the YAML changes no constraint, so no migration.
    ...(f.type.values ? { values: sortedValues(f.type.values) } : {}),
  };
}

/** Enum values as the snapshot and the CHECK constraints hold them: sorted by code unit. */
export function sortedValues(values: readonly string[]): string[] {
  return [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The snapshot file's text. */
export function printSnapshot(header: string, snapshot: Snapshot): string {
  return jsonFile(header, snapshot);
}

/** A snapshot before its tables are read. */
interface RawSnapshot {
  readonly version?: unknown;
  readonly lastMigration?: string | null;
  readonly tables?: Readonly<Record<string, unknown>> | null;
}

/**
 * Read a snapshot file's text: version 2, or version 1 (PostgreSQL types and
 * default SQL: bindery wrote version 1 only for PostgreSQL, so the
 * PostgreSQL dialect reads it), read into column types and default values.
 * @returns the snapshot, or a message saying why the text is not one.
 */
export function parseSnapshot(text: string): { ok: true; snapshot: Snapshot } | { ok: false; message: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `not valid JSON (${(error as Error).message})` };
  }
  const v = value as RawSnapshot | null;
  if (
    typeof v !== 'object' ||
    v === null ||
    (v.version !== 1 && v.version !== SNAPSHOT_VERSION) ||
    typeof v.tables !== 'object' ||
    v.tables === null ||
    !('lastMigration' in v)
  ) {
    return { ok: false, message: `not a bindery schema snapshot (version ${SNAPSHOT_VERSION} or 1 with "lastMigration" and "tables")` };
  }
  const tables = v.version === 1 ? tablesOfVersion1(v.tables) : (v.tables as Record<string, TableSnapshot>);
  if (typeof tables === 'string') return { ok: false, message: `not a bindery schema snapshot: ${tables}` };
  const wrong = unreadableColumn(tables);
  if (wrong !== undefined) return { ok: false, message: `not a bindery schema snapshot: ${wrong}` };
  return { ok: true, snapshot: { version: SNAPSHOT_VERSION, lastMigration: v.lastMigration ?? null, tables } };
}

/** The first column whose type is not a column type or whose default is not one bindery writes, in words. */
function unreadableColumn(tables: Readonly<Record<string, TableSnapshot>>): string | undefined {
  for (const [table, t] of Object.entries(tables)) {
    for (const [name, c] of Object.entries(t?.columns ?? {})) {
      if (typeof c?.type !== 'string' || parseColumnType(c.type) === undefined)
        return `the column ${table}.${name} has the type ${JSON.stringify(c?.type)}, not one of bindery's column types`;
      const d = c.default as { kind?: unknown } | undefined;
      if (d !== undefined && !(d.kind === 'now' || d.kind === 'randomUuid' || (d.kind === 'value' && 'value' in d)))
        return `the default of column ${table}.${name} (${JSON.stringify(d)}) is not one bindery writes`;
    }
  }
  return undefined;
}
