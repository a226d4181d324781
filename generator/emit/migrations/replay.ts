/**
 * Re-deriving the tables from the migration files: each statement bindery
 * writes is read back by the migration dialect (`dialect.ts`,
 * `readStatement`) and applied to an in-memory set of tables. `generate`
 * uses it to tell a hand-edited `schema.snapshot.json` from a real one, and
 * `--rebuild-snapshot` to write the snapshot again after a migration was
 * removed (docs/database.md "When a migration fails").
 */
import type { ColumnChange, MigrationDialect, ReplayStep } from './dialect.js';
import { sortedValues, type ColumnSnapshot, type ForeignKeySnapshot, type IndexSnapshot, type TableSnapshot } from './snapshot.js';

/** The outcome of {@link replayMigrations}: the tables, or the first statement bindery did not write. */
export type Replayed =
  | { readonly ok: true; readonly tables: Record<string, TableSnapshot> }
  | { readonly ok: false; readonly migration: string; readonly statement: string; readonly reason: string };

interface MutableTable {
  columns: Record<string, ColumnSnapshot>;
  indexes: Record<string, IndexSnapshot & { table: string }>;
  foreignKeys: Record<string, ForeignKeySnapshot>;
  /** Enum CHECK constraints: constraint name → column. */
  checks: Record<string, string>;
}

/**
 * Apply the statements of `migrations` (name and text, in order), read by
 * `dialect`, to an empty set of tables.
 * @returns the tables, with columns in the order the statements create them;
 *   or the first statement that is not one bindery writes (a hand-written
 *   migration), with the reason.
 */
export function replayMigrations(
  dialect: MigrationDialect,
  migrations: readonly { readonly name: string; readonly sql: string }[],
): Replayed {
  const state = new State();
  for (const migration of migrations) {
    for (const statement of dialect.statementsOf(migration.sql)) {
      const step = dialect.readStatement(statement);
      const problem = 'unreadable' in step ? step.unreadable : state.apply(step);
      if (problem !== undefined) return { ok: false, migration: migration.name, statement: firstLine(statement), reason: problem };
    }
  }
  return { ok: true, tables: state.snapshot() };
}

class State {
  private readonly tables = new Map<string, MutableTable>();

  /** Apply one step. @returns why it cannot be applied, or undefined. */
  apply(step: ReplayStep): string | undefined {
    switch (step.kind) {
      case 'createTable':
        return this.createTable(step.table, step.columns);
      case 'dropTable':
        return this.dropTable(step.table);
      case 'addColumn':
        return this.addColumn(step.table, step.column, step.definition);
      case 'dropColumn':
        return this.dropColumn(step.table, step.column);
      case 'alterColumn':
        return this.alterColumn(step.table, step.column, step.change);
      case 'dropConstraint':
        return this.dropConstraint(step.table, step.name);
      case 'addCheck':
        return this.addCheck(step.table, step.name, step.column, step.values, step.type);
      case 'renameTable':
        return this.renameTable(step.from, step.to);
      case 'renameColumn':
        return this.renameColumn(step.table, step.from, step.to);
      case 'renameConstraint':
        return this.renameConstraint(step.table, step.from, step.to);
      case 'renameIndex':
        return this.renameIndex(step.from, step.to, step.primaryKey);
      case 'addForeignKey':
        return this.addForeignKey(step.table, step.name, step.foreignKey);
      case 'createIndex':
        return this.createIndex(step.table, step.name, step.index);
      case 'dropIndex':
        return this.dropIndex(step.name);
      case 'modifyColumn':
        return this.modifyColumn(step.table, step.column, step.definition);
      case 'data':
        return undefined;
    }
  }

  createTable(table: string, columns: readonly (readonly [string, ColumnSnapshot])[]): string | undefined {
    if (this.tables.has(table)) return `table ${table} already exists`;
    const t: MutableTable = { columns: {}, indexes: {}, foreignKeys: {}, checks: {} };
    for (const [name, column] of columns) t.columns[name] = normalize(column);
    this.tables.set(table, t);
    return undefined;
  }

  dropTable(table: string): string | undefined {
    if (!this.tables.delete(table)) return `table ${table} does not exist`;
    return undefined;
  }

  addColumn(table: string, column: string, definition: ColumnSnapshot): string | undefined {
    const t = this.tables.get(table);
    if (!t) return `table ${table} does not exist`;
    t.columns[column] = normalize(definition);
    return undefined;
  }

  dropColumn(table: string, column: string): string | undefined {
    const t = this.tables.get(table);
    if (!t?.columns[column]) return `column ${table}.${column} does not exist`;
    delete t.columns[column];
    // PostgreSQL drops the column's CHECK constraint with it.
    for (const [key, c] of Object.entries(t.checks)) if (c === column) delete t.checks[key];
    return undefined;
  }

  alterColumn(table: string, column: string, change: ColumnChange): string | undefined {
    const t = this.tables.get(table);
    const c = t?.columns[column];
    if (!t || !c) return `column ${table}.${column} does not exist`;
    let next: ColumnSnapshot;
    switch (change.kind) {
      case 'type':
        next = { ...c, type: change.type };
        break;
      case 'setDefault': {
        const value = change.read(c.type);
        if (value === undefined) return `cannot read the default ${JSON.stringify(change.text)} of ${table}.${column}`;
        next = { ...c, default: value };
        break;
      }
      case 'dropDefault':
        next = without(c, 'default');
        break;
      case 'dropIdentity':
        next = without(c, 'identity');
        break;
      case 'addIdentity':
        next = { ...c, identity: true };
        break;
      case 'setNotNull':
        next = { ...c, nullable: false };
        break;
      case 'dropNotNull':
        next = { ...c, nullable: true };
        break;
    }
    t.columns[column] = normalize(next);
    return undefined;
  }

  modifyColumn(table: string, column: string, definition: ColumnSnapshot): string | undefined {
    const c = this.tables.get(table)?.columns[column];
    if (!c) return `column ${table}.${column} does not exist`;
    // The enum's values are its CHECK constraint's, which the redefinition keeps.
    this.tables.get(table)!.columns[column] = normalize({ ...without(definition, 'values'), ...(c.values ? { values: c.values } : {}) });
    return undefined;
  }

  addForeignKey(table: string, key: string, fk: ForeignKeySnapshot): string | undefined {
    const t = this.tables.get(table);
    if (!t) return `table ${table} does not exist`;
    t.foreignKeys[key] = fk;
    return undefined;
  }

  /** Drop a foreign key or an enum's CHECK constraint. */
  dropConstraint(table: string, key: string): string | undefined {
    const t = this.tables.get(table);
    if (t?.foreignKeys[key]) {
      delete t.foreignKeys[key];
      return undefined;
    }
    const column = t?.checks[key];
    if (!t || column === undefined) return `constraint ${key} of table ${table} does not exist`;
    delete t.checks[key];
    const c = t.columns[column];
    if (c) t.columns[column] = without(c, 'values');
    return undefined;
  }

  addCheck(table: string, key: string, column: string, values: readonly string[], type?: string): string | undefined {
    const t = this.tables.get(table);
    const c = t?.columns[column];
    if (!t || !c) return `column ${table}.${column} does not exist`;
    t.checks[key] = column;
    t.columns[column] = normalize({ ...c, ...(type !== undefined ? { type } : {}), values: sortedValues(values) });
    return undefined;
  }

  renameTable(from: string, to: string): string | undefined {
    const t = this.tables.get(from);
    if (!t) return `table ${from} does not exist`;
    if (this.tables.has(to)) return `table ${to} already exists`;
    this.tables.delete(from);
    this.tables.set(to, t);
    for (const index of Object.values(t.indexes)) index.table = to;
    for (const other of this.tables.values()) {
      for (const [key, fk] of Object.entries(other.foreignKeys)) if (fk.table === from) other.foreignKeys[key] = { ...fk, table: to };
    }
    return undefined;
  }

  renameColumn(table: string, from: string, to: string): string | undefined {
    const t = this.tables.get(table);
    if (!t?.columns[from]) return `column ${table}.${from} does not exist`;
    if (t.columns[to]) return `column ${table}.${to} already exists`;
    // Keep the column's place: rebuild the record in order.
    t.columns = Object.fromEntries(Object.entries(t.columns).map(([k, v]) => [k === from ? to : k, v]));
    for (const [key, index] of Object.entries(t.indexes))
      t.indexes[key] = { ...index, columns: index.columns.map((c) => (c === from ? to : c)) };
    for (const [key, fk] of Object.entries(t.foreignKeys)) if (fk.column === from) t.foreignKeys[key] = { ...fk, column: to };
    for (const [key, column] of Object.entries(t.checks)) if (column === from) t.checks[key] = to;
    for (const other of this.tables.values()) {
      for (const [key, fk] of Object.entries(other.foreignKeys)) {
        if (fk.table === table && fk.references === from) other.foreignKeys[key] = { ...fk, references: to };
      }
    }
    return undefined;
  }

  renameConstraint(table: string, from: string, to: string): string | undefined {
    const t = this.tables.get(table);
    if (t?.foreignKeys[from]) {
      t.foreignKeys[to] = t.foreignKeys[from]!;
      delete t.foreignKeys[from];
      return undefined;
    }
    if (t?.checks[from] !== undefined) {
      t.checks[to] = t.checks[from]!;
      delete t.checks[from];
      return undefined;
    }
    return `constraint ${from} of table ${table} does not exist`;
  }

  renameIndex(from: string, to: string, primaryKey: boolean): string | undefined {
    for (const t of this.tables.values()) {
      if (t.indexes[from]) {
        t.indexes[to] = t.indexes[from]!;
        delete t.indexes[from];
        return undefined;
      }
    }
    // A primary key's own index (renamed with its table) is not among the recorded indexes.
    if (primaryKey) return undefined;
    return `index ${from} does not exist`;
  }

  createIndex(table: string, index: string, definition: IndexSnapshot): string | undefined {
    const t = this.tables.get(table);
    if (!t) return `table ${table} does not exist`;
    t.indexes[index] = { ...definition, table };
    return undefined;
  }

  dropIndex(index: string): string | undefined {
    for (const t of this.tables.values()) {
      if (t.indexes[index]) {
        delete t.indexes[index];
        return undefined;
      }
    }
    return `index ${index} does not exist`;
  }

  /** Tables sorted by name, indexes by name, foreign keys by column (the order `tablesOf` gives). */
  snapshot(): Record<string, TableSnapshot> {
    const out: Record<string, TableSnapshot> = {};
    for (const name of [...this.tables.keys()].sort()) {
      const t = this.tables.get(name)!;
      const indexes: Record<string, IndexSnapshot> = {};
      for (const key of Object.keys(t.indexes).sort()) {
        const { table: _table, ...index } = t.indexes[key]!;
        indexes[key] = index;
      }
      const foreignKeys: Record<string, ForeignKeySnapshot> = {};
      for (const [key, fk] of Object.entries(t.foreignKeys).sort(([, a], [, b]) => (a.column < b.column ? -1 : 1))) foreignKeys[key] = fk;
      out[name] = { columns: { ...t.columns }, indexes, foreignKeys };
    }
    return out;
  }
}

/** A column with its keys in the snapshot's order: type, nullable, default, identity, primaryKey, values. */
function normalize(c: ColumnSnapshot): ColumnSnapshot {
  return {
    type: c.type,
    nullable: c.nullable,
    ...(c.default !== undefined ? { default: c.default } : {}),
    ...(c.identity ? { identity: true } : {}),
    ...(c.primaryKey ? { primaryKey: true } : {}),
    ...(c.values !== undefined ? { values: c.values } : {}),
  };
}

function without(c: ColumnSnapshot, key: 'default' | 'identity' | 'values'): ColumnSnapshot {
  const copy: Record<string, unknown> = { ...c };
  delete copy[key];
  return copy as unknown as ColumnSnapshot;
}

function firstLine(statement: string): string {
  const line = statement.split('\n')[0]!;
  return line.length > 80 ? `${line.slice(0, 77)}…` : line;
}
