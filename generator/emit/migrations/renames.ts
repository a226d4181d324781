/**
 * Renames (docs/schema-language.md "Renames"): `renamedFrom:` on a resource
 * (the old table name) or a field (the old column name) turns what would be a
 * drop plus a create into a rename of the table or column (the dialect's
 * `renameTable`, `renameColumn`), which keeps the rows.
 *
 * The renames are applied to the snapshot's tables before the diff, so the
 * diff sees the renamed tables and finds nothing else to change. Names bindery
 * derives from a table or column name — indexes, foreign keys, enum CHECK
 * constraints — are renamed with them when their definition is unchanged.
 *
 * A renamed table's audit history (`subject_type` of the audit tables, when
 * they exist) moves to the new name with it.
 *
 * A `renamedFrom` whose new name is already in the snapshot has been applied
 * by an earlier migration: it is ignored (it may stay in the YAML, or go).
 * Otherwise the old name must be in the snapshot and no longer declared.
 */
import type { Diagnostics } from '../../diagnostics.js';
import type { Model, RenamedFrom } from '../../model/model.js';
import { didYouMean } from '../../suggest.js';
import type { MigrationDialect } from './dialect.js';
import { checkName } from './names.js';
import type { ColumnSnapshot, ForeignKeySnapshot, IndexSnapshot, TableSnapshot } from './snapshot.js';

type Tables = Readonly<Record<string, TableSnapshot>>;

interface Working {
  columns: Record<string, ColumnSnapshot>;
  indexes: Record<string, IndexSnapshot>;
  foreignKeys: Record<string, ForeignKeySnapshot>;
}

/** The snapshot's tables after the renames, the statements doing them and their file-name words. */
export interface Renamed {
  readonly tables: Record<string, TableSnapshot>;
  readonly statements: readonly string[];
  readonly changes: readonly string[];
}

/**
 * Apply the model's renames to `before` (the snapshot's tables), compared with
 * `after` (the model's tables), in the statements of `dialect`.
 * @returns the renamed tables and statements; undefined when a `renamedFrom`
 *   is wrong (reported to `diagnostics` at its position, with a "did you mean").
 */
export function applyRenames(
  dialect: MigrationDialect,
  before: Tables,
  after: Tables,
  model: Model,
  diagnostics: Diagnostics,
): Renamed | undefined {
  const tables = new Map<string, Working>(Object.entries(before).map(([name, t]) => [name, copy(t)]));
  const statements: string[] = [];
  const changes: string[] = [];
  const touched = new Map<string, { table?: string; columns: Map<string, string> }>();
  let ok = true;
  const fail = (from: RenamedFrom, path: string, message: string): void => {
    ok = false;
    diagnostics.add(from.origin, path, message);
  };

  for (const resource of model.resources) {
    const from = resource.renamedFrom;
    if (!from || tables.has(resource.table)) continue;
    const path = `resources.${resource.name}.renamedFrom`;
    if (!tables.has(from.name)) {
      const gone = [...tables.keys()].filter((t) => !(t in after));
      fail(
        from,
        path,
        `table "${from.name}" is not in the snapshot${didYouMean(from.name, gone)}, so there is nothing to rename to "${resource.table}"; name the table as the last migration left it${gone.length > 0 ? ` (tables no longer declared: ${gone.join(', ')})` : ''}, or remove "renamedFrom"`,
      );
      continue;
    }
    if (from.name in after) {
      fail(
        from,
        path,
        `table "${from.name}" is still declared by another resource; a renamed table cannot also stay — remove "renamedFrom", or rename that resource's table`,
      );
      continue;
    }
    const t = tables.get(from.name)!;
    tables.delete(from.name);
    tables.set(resource.table, t);
    for (const other of tables.values()) {
      for (const [key, fk] of Object.entries(other.foreignKeys))
        if (fk.table === from.name) other.foreignKeys[key] = { ...fk, table: resource.table };
    }
    statements.push(dialect.renameTable(from.name, resource.table), dialect.moveAuditSubjects(from.name, resource.table, AUDIT_TABLES));
    changes.push(`rename_${from.name}`);
    touched.set(resource.table, { table: from.name, columns: new Map() });
  }

  for (const resource of model.resources) {
    const t = tables.get(resource.table);
    for (const field of resource.fields) {
      const from = field.renamedFrom;
      if (!from || t?.columns[field.name]) continue;
      const path = `resources.${resource.name}.fields.${field.name}.renamedFrom`;
      if (!t) {
        fail(
          from,
          path,
          `table "${resource.table}" is new (not in the snapshot), so it has no column "${from.name}" to rename; remove "renamedFrom"`,
        );
        continue;
      }
      const declared = after[resource.table]?.columns ?? {};
      if (!t.columns[from.name]) {
        const gone = Object.keys(t.columns).filter((c) => !(c in declared));
        fail(
          from,
          path,
          `column "${from.name}" is not in table ${resource.table} of the snapshot${didYouMean(from.name, gone)}, so there is nothing to rename to "${field.name}"; name the column as the last migration left it${gone.length > 0 ? ` (columns no longer declared: ${gone.join(', ')})` : ''}, or remove "renamedFrom"`,
        );
        continue;
      }
      if (from.name in declared) {
        fail(
          from,
          path,
          `column "${from.name}" is still declared in resource ${resource.name}; a renamed column cannot also stay — remove "renamedFrom", or remove or rename that field`,
        );
        continue;
      }
      renameColumn(tables, resource.table, from.name, field.name);
      statements.push(dialect.renameColumn(resource.table, from.name, field.name));
      changes.push(`rename_${resource.table}_${from.name}`);
      const entry = touched.get(resource.table) ?? { columns: new Map<string, string>() };
      entry.columns.set(field.name, from.name);
      touched.set(resource.table, entry);
    }
  }
  if (!ok) return undefined;

  for (const [table, renamed] of touched) statements.push(...renameDerived(dialect, tables, table, renamed, after[table]));
  return { tables: Object.fromEntries(tables), statements, changes };
}

/**
 * Rename the indexes, foreign keys and enum CHECK constraints of a renamed
 * table or of its renamed columns to the names the model gives them, so the
 * diff does not drop and recreate them.
 */
function renameDerived(
  dialect: MigrationDialect,
  tables: Map<string, Working>,
  table: string,
  renamed: { table?: string; columns: Map<string, string> },
  wanted: TableSnapshot | undefined,
): string[] {
  const t = tables.get(table)!;
  if (!wanted) return [];
  const out: string[] = [];
  // What the engine named after the old table for its primary key (PostgreSQL's `<table>_pkey`); the snapshot does not record it.
  if (renamed.table !== undefined && Object.values(t.columns).some((c) => c.primaryKey)) {
    const pkey = dialect.renamePrimaryKey(renamed.table, table);
    if (pkey !== undefined) out.push(pkey);
  }
  for (const [name, index] of Object.entries(t.indexes)) {
    if (name in wanted.indexes) continue;
    const target = Object.entries(wanted.indexes).find(([other, i]) => !(other in t.indexes) && same(i, index))?.[0];
    if (target === undefined || [...tables.values()].some((x) => target in x.indexes)) continue;
    t.indexes = rekey(t.indexes, name, target);
    out.push(dialect.renameIndex(table, name, target));
  }
  for (const [name, fk] of Object.entries(t.foreignKeys)) {
    if (name in wanted.foreignKeys) continue;
    const target = Object.entries(wanted.foreignKeys).find(([other, k]) => !(other in t.foreignKeys) && same(k, fk))?.[0];
    if (target === undefined) continue;
    t.foreignKeys = rekey(t.foreignKeys, name, target);
    out.push(dialect.renameForeignKey(table, name, target, fk));
  }
  // An enum's CHECK constraint is named after its table and column (`checkName`); the snapshot implies the name.
  for (const [column, c] of Object.entries(t.columns)) {
    if (!c.values) continue;
    const oldName = checkName(renamed.table ?? table, renamed.columns.get(column) ?? column);
    const newName = checkName(table, column);
    if (oldName !== newName) out.push(dialect.renameEnumCheck(table, oldName, newName, column, c));
  }
  return out;
}

/** The audit tables name rows by their table (docs/audit.md "Tables"). */
const AUDIT_TABLES = ['audit_log', 'audit_bulk', 'audit_bulk_items'] as const;

function renameColumn(tables: Map<string, Working>, table: string, from: string, to: string): void {
  const t = tables.get(table)!;
  t.columns = rekey(t.columns, from, to);
  for (const [key, index] of Object.entries(t.indexes))
    t.indexes[key] = { ...index, columns: index.columns.map((c) => (c === from ? to : c)) };
  for (const [key, fk] of Object.entries(t.foreignKeys)) if (fk.column === from) t.foreignKeys[key] = { ...fk, column: to };
  for (const other of tables.values()) {
    for (const [key, fk] of Object.entries(other.foreignKeys)) {
      if (fk.table === table && fk.references === from) other.foreignKeys[key] = { ...fk, references: to };
    }
  }
}

/** The record with key `from` renamed to `to`, in the same place. */
function rekey<T>(record: Record<string, T>, from: string, to: string): Record<string, T> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k === from ? to : k, v]));
}

function copy(t: TableSnapshot): Working {
  return { columns: { ...t.columns }, indexes: { ...t.indexes }, foreignKeys: { ...t.foreignKeys } };
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
