/**
 * `generated/schema.snapshot.json`: the tables as of the last generated
 * migration. `generate` compares the current model with it to write the next
 * migration. Tables, columns (in YAML order), indexes and foreign keys.
 */
import { createHash } from 'node:crypto';
import type { Model, Resource, ResourceField } from '../../model/model.js';
import { jsonFile } from '../../write/header.js';
import { sqlDefault, sqlType } from './sql-types.js';

/** A column as the database has it. */
export interface ColumnSnapshot {
  /** SQL type, e.g. `varchar(200)`, `text[]`. */
  readonly type: string;
  readonly nullable: boolean;
  /** SQL default expression, e.g. `now()`, `''`. */
  readonly default?: string;
  readonly identity?: boolean;
  readonly primaryKey?: boolean;
  /**
   * The values of an enum column, sorted: the column has the CHECK
   * constraint `<table>_<column>_check` allowing only them (`sql.ts`, `checkName`).
   */
  readonly values?: readonly string[];
}

/** An index. */
export interface IndexSnapshot {
  readonly columns: readonly string[];
  readonly unique: boolean;
  /** Partial index condition, e.g. `"deleted_at" IS NULL`. */
  readonly where?: string;
}

/** A foreign key. */
export interface ForeignKeySnapshot {
  readonly column: string;
  readonly table: string;
  readonly references: string;
  readonly onDelete: string;
}

/** A table. Map keys are SQL names; columns keep their declared order. */
export interface TableSnapshot {
  readonly columns: Readonly<Record<string, ColumnSnapshot>>;
  readonly indexes: Readonly<Record<string, IndexSnapshot>>;
  readonly foreignKeys: Readonly<Record<string, ForeignKeySnapshot>>;
}

/** The snapshot file's content. */
export interface Snapshot {
  readonly version: 1;
  /** Name of the last migration (without `.sql`), or null before the first. */
  readonly lastMigration: string | null;
  /** Tables by name, sorted. */
  readonly tables: Readonly<Record<string, TableSnapshot>>;
}

/** The live-rows condition of partial unique indexes. */
const LIVE_ROWS = '"deleted_at" IS NULL';

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
    indexes[i.name] = { columns: i.columns, unique: i.unique, ...(i.live ? { where: LIVE_ROWS } : {}) };
  }
  const foreignKeys: Record<string, ForeignKeySnapshot> = {};
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
  const type = sqlType(f.type);
  return {
    type,
    nullable: f.type.nullable,
    ...(f.default ? { default: sqlDefault(f.default, type) } : {}),
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

/** `<table>_<column>_fkey`, cut with a hash suffix past 63 characters. */
export function foreignKeyName(table: string, column: string): string {
  return constraintName(table, column, 'fkey');
}

/** `<table>_<column>_<suffix>`, cut with a hash suffix past 63 characters. */
export function constraintName(table: string, column: string, suffix: string): string {
  const full = `${table}_${column}_${suffix}`;
  return full.length <= 63 ? full : `${full.slice(0, 54)}_${createHash('sha256').update(full).digest('hex').slice(0, 8)}`;
}

/** The snapshot file's text. */
export function printSnapshot(header: string, snapshot: Snapshot): string {
  return jsonFile(header, snapshot);
}

/**
 * Read a snapshot file's text.
 * @returns the snapshot, or a message saying why the text is not one.
 */
export function parseSnapshot(text: string): { ok: true; snapshot: Snapshot } | { ok: false; message: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `not valid JSON (${(error as Error).message})` };
  }
  const v = value as Partial<Snapshot> | null;
  if (
    typeof v !== 'object' ||
    v === null ||
    v.version !== 1 ||
    typeof v.tables !== 'object' ||
    v.tables === null ||
    !('lastMigration' in v)
  ) {
    return { ok: false, message: 'not a bindery schema snapshot (version 1 with "lastMigration" and "tables")' };
  }
  return { ok: true, snapshot: { version: 1, lastMigration: v.lastMigration ?? null, tables: v.tables } };
}
