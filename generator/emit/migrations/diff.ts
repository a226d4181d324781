/**
 * The difference between two sets of tables, as the statements of a
 * migration dialect (`dialect.ts`), with the destructive and unsupported
 * changes it contains. Columns are compared as the engine has them: two
 * column types or defaults the engine writes alike (`string` and `text` are
 * both PostgreSQL's `text`) are no change.
 *
 * Statement order: drop foreign keys and indexes that go or change; drop
 * tables; create tables (with their enum CHECK constraints); alter tables
 * (add, alter, drop columns; an enum's CHECK is dropped before its column
 * changes and added after, behind a guard when rows may hold other values);
 * create indexes; add foreign keys. Within each step, tables in name order.
 */
import type { ColumnTypeText } from '../../../runtime/db/column-type.js';
import type { MigrationDialect } from './dialect.js';
import { sortedValues, type ColumnSnapshot, type TableSnapshot } from './snapshot.js';

/** A change the diff refuses: destructive (needs `allowDestructive`) or unsupported (needs a schema change). */
export interface RefusedChange {
  readonly kind: 'destructive' | 'unsupported';
  readonly table: string;
  /** Column concerned, if any. */
  readonly column?: string;
  readonly message: string;
}

/** The statements of a migration and the words of its file name. */
export interface TableDiff {
  readonly statements: readonly string[];
  /** Short words describing the changes, e.g. `create_notes`, `add_notes_pinned`; at least one when there are statements. */
  readonly changes: readonly string[];
  readonly refused: readonly RefusedChange[];
  /**
   * What the migration loses, one sentence each (e.g. `drops column notes.body and its data`):
   * the destructive changes, written into the migration as comments when allowed.
   */
  readonly losses: readonly string[];
}

type Tables = Readonly<Record<string, TableSnapshot>>;

type Destructive = (table: string, column: string | undefined, message: string, loss: string) => void;

/**
 * Compare `before` (the snapshot) with `after` (the model), in the statements of `dialect`.
 * @param allowDestructive when false, dropping a table or column and narrowing a column type are refused.
 */
export function diffTables(dialect: MigrationDialect, before: Tables, after: Tables, allowDestructive: boolean): TableDiff {
  const dropKeys: string[] = [];
  const dropIndexes: string[] = [];
  const dropTables: string[] = [];
  const creates: string[] = [];
  const alters: string[] = [];
  const indexes: string[] = [];
  const keys: string[] = [];
  const changes: string[] = [];
  const refused: RefusedChange[] = [];
  const losses: string[] = [];
  const destructive: Destructive = (table, column, message, loss) => {
    losses.push(loss);
    if (!allowDestructive) refused.push({ kind: 'destructive', table, ...(column ? { column } : {}), message });
  };

  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  for (const table of names) {
    const old = before[table];
    const now = after[table];
    if (old) {
      // Foreign keys go first, also those of dropped tables: another dropped table may be what they reference.
      for (const [name, fk] of Object.entries(old.foreignKeys)) {
        if (!now || !same(fk, now.foreignKeys[name])) {
          dropKeys.push(dialect.dropForeignKey(table, name));
          if (now) changes.push(`fkey_${table}`);
        }
      }
    }
    if (old && now) {
      for (const [name, index] of Object.entries(old.indexes)) {
        if (!same(index, now.indexes[name])) dropIndexes.push(dialect.dropIndex(table, name, index));
      }
    }
    if (old && !now) {
      dropTables.push(dialect.dropTable(table));
      changes.push(`drop_${table}`);
      const added = Object.keys(after).filter((t) => !(t in before));
      const hint =
        added.length > 0 ? `; if it was renamed to ${added.join(' or ')}, add "renamedFrom: ${table}" to that resource instead` : '';
      destructive(table, undefined, `dropping table ${table} deletes all its rows${hint}`, `drops table ${table} and all its rows`);
      continue;
    }
    if (!now) continue;
    if (!old) {
      creates.push(dialect.createTable(table, now));
      for (const [name, column] of Object.entries(now.columns)) if (column.values) creates.push(dialect.addEnumCheck(table, name, column));
      changes.push(`create_${table}`);
    } else {
      const altered = diffColumns(dialect, table, old, now, destructive, refused);
      alters.push(...altered.statements);
      changes.push(...altered.changes);
    }
    for (const [name, index] of Object.entries(now.indexes)) {
      if (!old || !same(index, old.indexes[name])) {
        indexes.push(dialect.createIndex(table, name, index, now));
        if (old) changes.push(`index_${table}`);
      }
    }
    for (const [name, fk] of Object.entries(now.foreignKeys)) {
      if (!old || !same(fk, old.foreignKeys[name])) {
        keys.push(dialect.addForeignKey(table, name, fk));
        if (old) changes.push(`fkey_${table}`);
      }
    }
    if (old && Object.keys(old.indexes).some((name) => !(name in now.indexes))) changes.push(`index_${table}`);
  }
  const statements = [...dropKeys, ...dropIndexes, ...dropTables, ...creates, ...alters, ...indexes, ...keys];
  // Every statement above comes with a word; the fallback keeps a name should one ever be missed.
  const words = changes.length === 0 && statements.length > 0 ? ['alter_schema'] : [...new Set(changes)];
  return { statements, changes: words, refused, losses };
}

function diffColumns(
  dialect: MigrationDialect,
  table: string,
  old: TableSnapshot,
  now: TableSnapshot,
  destructive: Destructive,
  refused: RefusedChange[],
): { statements: string[]; changes: string[] } {
  const statements: string[] = [];
  const changes: string[] = [];
  for (const [name, column] of Object.entries(now.columns)) {
    const was = old.columns[name];
    if (!was) {
      if (!column.nullable && column.default === undefined && !column.identity) {
        refused.push({
          kind: 'unsupported',
          table,
          column: name,
          message: `adding the NOT NULL column ${table}.${name} to an existing table needs a value for its rows; add "default:" or "nullable: true" to the field`,
        });
      }
      if (column.primaryKey)
        refused.push({
          kind: 'unsupported',
          table,
          column: name,
          message: `adding a primary key to the existing table ${table} is not supported; keep its primary key as it was`,
        });
      statements.push(dialect.addColumn(table, name, column));
      // The new column holds its default (one of the values) or NULL: nothing to guard.
      if (column.values) statements.push(dialect.addEnumCheck(table, name, column));
      changes.push(`add_${table}_${name}`);
      continue;
    }
    const check = enumChange(dialect, table, name, was, column, destructive);
    const altered = alterColumn(dialect, table, name, was, column, destructive, refused);
    if (altered.length > 0 || check.before.length > 0 || check.after.length > 0) {
      statements.push(...check.before, ...altered, ...check.after);
      changes.push(`alter_${table}_${name}`);
    }
  }
  for (const name of Object.keys(old.columns)) {
    if (name in now.columns) continue;
    if (old.columns[name]!.primaryKey)
      refused.push({
        kind: 'unsupported',
        table,
        column: name,
        message: `dropping the primary key column ${table}.${name} is not supported; keep the column`,
      });
    const added = Object.keys(now.columns).filter((c) => !(c in old.columns));
    const hint = added.length > 0 ? `; if it was renamed to ${added.join(' or ')}, add "renamedFrom: ${name}" to that field instead` : '';
    destructive(table, name, `dropping column ${table}.${name} deletes its data${hint}`, `drops column ${table}.${name} and its data`);
    statements.push(dialect.dropColumn(table, name));
    changes.push(`drop_${table}_${name}`);
  }
  return { statements, changes };
}

/**
 * The statements changing an enum column's CHECK constraint: dropped before
 * the column changes (`before`), added again after (`after`). Adding values
 * needs no guard; a column becoming an enum or losing values gets the guard
 * of `enumGuard` (removing values is also destructive: clients may hold them).
 */
function enumChange(
  dialect: MigrationDialect,
  table: string,
  name: string,
  was: ColumnSnapshot,
  now: ColumnSnapshot,
  destructive: Destructive,
): { before: string[]; after: string[] } {
  const sorted = (v: readonly string[] | undefined): string => JSON.stringify(sortedValues(v ?? []));
  const sameType = !typeChanged(dialect, was, now);
  if (sorted(was.values) === sorted(now.values) && (was.values === undefined || sameType)) return { before: [], after: [] };
  const before = was.values ? [dialect.dropEnumCheck(table, name)] : [];
  if (!now.values) return { before, after: [] };
  const removed = (was.values ?? []).filter((v) => !now.values!.includes(v));
  if (removed.length > 0) {
    const list = removed.join(', ');
    destructive(
      table,
      name,
      `removing the value(s) ${list} from the enum ${table}.${name} rejects rows and clients still using them`,
      `removes the value(s) ${list} from the enum ${table}.${name}; migrate stops with an error and changes nothing if a row still holds one`,
    );
  }
  const guarded = was.values === undefined || removed.length > 0 || !sameType;
  return { before, after: [...(guarded ? [dialect.enumGuard(table, name, now)] : []), dialect.addEnumCheck(table, name, now)] };
}

/** The column's type differs as the engine has it. */
function typeChanged(dialect: MigrationDialect, was: ColumnSnapshot, now: ColumnSnapshot): boolean {
  return was.type !== now.type && dialect.columnType(was.type) !== dialect.columnType(now.type);
}

/** The engine's default expression of a column (`undefined`: none). */
function defaultOf(dialect: MigrationDialect, c: ColumnSnapshot): string | undefined {
  return c.default === undefined ? undefined : dialect.defaultValue(c.default, c.type);
}

function alterColumn(
  dialect: MigrationDialect,
  table: string,
  name: string,
  was: ColumnSnapshot,
  now: ColumnSnapshot,
  destructive: Destructive,
  refused: RefusedChange[],
): string[] {
  const out: string[] = [];
  if (Boolean(was.primaryKey) !== Boolean(now.primaryKey)) {
    refused.push({
      kind: 'unsupported',
      table,
      column: name,
      message: `changing the primary key of table ${table} is not supported; keep "primaryKey" on the field it was on`,
    });
  }
  const retyped = typeChanged(dialect, was, now);
  const defaultChanged = defaultOf(dialect, was) !== defaultOf(dialect, now);
  if (dialect.modifyColumn) return modifyColumn(dialect, dialect.modifyColumn, table, name, was, now, retyped, destructive, refused);
  if (was.identity && !now.identity) out.push(dialect.dropIdentity(table, name, now));
  // A changed type drops the default first (the old default may not cast); SET DEFAULT puts it back.
  if (was.default !== undefined && (retyped || (defaultChanged && now.default === undefined))) out.push(dialect.dropDefault(table, name));
  if (retyped) {
    if (!widens(was.type, now.type)) {
      const [from, to] = [dialect.columnType(was.type), dialect.columnType(now.type)];
      destructive(
        table,
        name,
        `changing column ${table}.${name} from ${from} to ${to} may lose or reject values`,
        `changes ${table}.${name} from ${from} to ${to}; migrate stops with an error and changes nothing if a value would not survive the change unchanged`,
      );
      out.push(dialect.typeChangeGuard(table, name, was, now));
    }
    out.push(dialect.changeType(table, name, was, now));
  }
  if (now.default !== undefined && (defaultChanged || retyped)) out.push(dialect.setDefault(table, name, now));
  if (was.nullable && !now.nullable && !now.primaryKey) {
    if (now.default !== undefined) out.push(dialect.fillNulls(table, name, now));
    else if (!now.identity)
      refused.push({
        kind: 'unsupported',
        table,
        column: name,
        message: `making ${table}.${name} NOT NULL needs a value for rows holding NULL; add "default:" to the field or keep "nullable: true"`,
      });
    out.push(dialect.setNotNull(table, name, now));
  }
  if (!was.nullable && now.nullable) out.push(dialect.dropNotNull(table, name, now));
  if (!was.identity && now.identity) out.push(dialect.addIdentity(table, name, now));
  return out;
}

/**
 * The changes of a column on an engine that redefines it whole
 * (`dialect.modifyColumn`): the narrowing guard, the NULLs filled with the
 * default, then one statement giving the column its new definition — when
 * the engine writes the two definitions differently.
 */
function modifyColumn(
  dialect: MigrationDialect,
  modify: NonNullable<MigrationDialect['modifyColumn']>,
  table: string,
  name: string,
  was: ColumnSnapshot,
  now: ColumnSnapshot,
  retyped: boolean,
  destructive: Destructive,
  refused: RefusedChange[],
): string[] {
  const out: string[] = [];
  if (modify(table, name, was) === modify(table, name, now)) return out;
  if (retyped && !widens(was.type, now.type)) {
    const [from, to] = [dialect.columnType(was.type), dialect.columnType(now.type)];
    destructive(
      table,
      name,
      `changing column ${table}.${name} from ${from} to ${to} may lose or reject values`,
      `changes ${table}.${name} from ${from} to ${to}; migrate stops with an error and changes nothing if a value would not survive the change unchanged`,
    );
    out.push(dialect.typeChangeGuard(table, name, was, now));
  }
  if (was.nullable && !now.nullable && !now.primaryKey) {
    if (now.default !== undefined) out.push(dialect.fillNulls(table, name, now));
    else if (!now.identity)
      refused.push({
        kind: 'unsupported',
        table,
        column: name,
        message: `making ${table}.${name} NOT NULL needs a value for rows holding NULL; add "default:" to the field or keep "nullable: true"`,
      });
  }
  out.push(modify(table, name, now));
  return out;
}

/**
 * True when every value of column type `from` fits `to` unchanged: a
 * `string(n)` into a longer one or one without a limit, text of no limit
 * into the other kind of it, an `integer` into a `bigint` or `float`; lists
 * by their items.
 */
function widens(from: ColumnTypeText, to: ColumnTypeText): boolean {
  const a = /^(.*?)(\[\])?$/.exec(from)!;
  const b = /^(.*?)(\[\])?$/.exec(to)!;
  if (Boolean(a[2]) !== Boolean(b[2])) return false;
  const [x, y] = [a[1]!, b[1]!];
  const len = (t: string): number | undefined => {
    const m = /^string\((\d+)\)$/.exec(t);
    return m ? Number(m[1]) : undefined;
  };
  const unlimited = (t: string): boolean => t === 'string' || t === 'text';
  if (len(x) !== undefined) return unlimited(y) || (len(y) !== undefined && len(y)! >= len(x)!);
  if (unlimited(x)) return unlimited(y);
  if (x === 'integer') return y === 'bigint' || y === 'float';
  return false;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
