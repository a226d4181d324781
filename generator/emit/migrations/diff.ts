/**
 * The difference between two sets of tables, as PostgreSQL statements, with
 * the destructive and unsupported changes it contains.
 *
 * Statement order: drop foreign keys and indexes that go or change; drop
 * tables; create tables (with their enum CHECK constraints); alter tables
 * (add, alter, drop columns; an enum's CHECK is dropped before its column
 * changes and added after, behind a guard when rows may hold other values);
 * create indexes; add foreign keys. Within each step, tables in name order.
 */
import { addEnumCheck, addForeignKey, alterTable, checkName, columnDefinition, createIndex, createTable, enumGuard, ident } from './sql.js';
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

/**
 * Compare `before` (the snapshot) with `after` (the model).
 * @param allowDestructive when false, dropping a table or column and narrowing a column type are refused.
 */
export function diffTables(before: Tables, after: Tables, allowDestructive: boolean): TableDiff {
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
  const destructive = (table: string, column: string | undefined, message: string, loss: string): void => {
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
          dropKeys.push(alterTable(table, `DROP CONSTRAINT ${ident(name)}`));
          if (now) changes.push(`fkey_${table}`);
        }
      }
    }
    if (old && now) {
      for (const [name, index] of Object.entries(old.indexes)) {
        if (!same(index, now.indexes[name])) dropIndexes.push(`DROP INDEX ${ident(name)};`);
      }
    }
    if (old && !now) {
      dropTables.push(`DROP TABLE ${ident(table)};`);
      changes.push(`drop_${table}`);
      const added = Object.keys(after).filter((t) => !(t in before));
      const hint =
        added.length > 0 ? `; if it was renamed to ${added.join(' or ')}, add "renamedFrom: ${table}" to that resource instead` : '';
      destructive(table, undefined, `dropping table ${table} deletes all its rows${hint}`, `drops table ${table} and all its rows`);
      continue;
    }
    if (!now) continue;
    if (!old) {
      creates.push(createTable(table, now));
      for (const [name, column] of Object.entries(now.columns)) if (column.values) creates.push(addEnumCheck(table, name, column));
      changes.push(`create_${table}`);
    } else {
      const altered = diffColumns(table, old, now, destructive, refused);
      alters.push(...altered.statements);
      changes.push(...altered.changes);
    }
    for (const [name, index] of Object.entries(now.indexes)) {
      if (!old || !same(index, old.indexes[name])) {
        indexes.push(createIndex(table, name, index));
        if (old) changes.push(`index_${table}`);
      }
    }
    for (const [name, fk] of Object.entries(now.foreignKeys)) {
      if (!old || !same(fk, old.foreignKeys[name])) {
        keys.push(addForeignKey(table, name, fk));
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
  table: string,
  old: TableSnapshot,
  now: TableSnapshot,
  destructive: (table: string, column: string | undefined, message: string, loss: string) => void,
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
      statements.push(alterTable(table, `ADD COLUMN ${columnDefinition(name, { ...column, primaryKey: false })}`));
      // The new column holds its default (one of the values) or NULL: nothing to guard.
      if (column.values) statements.push(addEnumCheck(table, name, column));
      changes.push(`add_${table}_${name}`);
      continue;
    }
    const check = enumChange(table, name, was, column, destructive);
    const altered = alterColumn(table, name, was, column, destructive, refused);
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
    statements.push(alterTable(table, `DROP COLUMN ${ident(name)}`));
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
  table: string,
  name: string,
  was: ColumnSnapshot,
  now: ColumnSnapshot,
  destructive: (table: string, column: string | undefined, message: string, loss: string) => void,
): { before: string[]; after: string[] } {
  const sorted = (v: readonly string[] | undefined): string => JSON.stringify(sortedValues(v ?? []));
  if (sorted(was.values) === sorted(now.values) && (was.values === undefined || was.type === now.type)) return { before: [], after: [] };
  const before = was.values ? [alterTable(table, `DROP CONSTRAINT ${ident(checkName(table, name))}`)] : [];
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
  const guarded = was.values === undefined || removed.length > 0 || was.type !== now.type;
  return { before, after: [...(guarded ? [enumGuard(table, name, now)] : []), addEnumCheck(table, name, now)] };
}

function alterColumn(
  table: string,
  name: string,
  was: ColumnSnapshot,
  now: ColumnSnapshot,
  destructive: (table: string, column: string | undefined, message: string, loss: string) => void,
  refused: RefusedChange[],
): string[] {
  const out: string[] = [];
  const column = `ALTER COLUMN ${ident(name)}`;
  if (Boolean(was.primaryKey) !== Boolean(now.primaryKey)) {
    refused.push({
      kind: 'unsupported',
      table,
      column: name,
      message: `changing the primary key of table ${table} is not supported; keep "primaryKey" on the field it was on`,
    });
  }
  const typeChanged = was.type !== now.type;
  const defaultChanged = was.default !== now.default;
  if (was.identity && !now.identity) out.push(alterTable(table, `${column} DROP IDENTITY`));
  // A changed type drops the default first (the old default may not cast); SET DEFAULT puts it back.
  if (was.default !== undefined && (typeChanged || (defaultChanged && now.default === undefined)))
    out.push(alterTable(table, `${column} DROP DEFAULT`));
  if (typeChanged) {
    if (!widens(was.type, now.type)) {
      destructive(
        table,
        name,
        `changing column ${table}.${name} from ${was.type} to ${now.type} may lose or reject values`,
        `changes ${table}.${name} from ${was.type} to ${now.type}; migrate stops with an error and changes nothing if a value would not survive the change unchanged`,
      );
      out.push(narrowingGuard(table, name, was.type, now.type));
    }
    out.push(alterTable(table, `${column} TYPE ${now.type} USING ${ident(name)}::${now.type}`));
  }
  if (now.default !== undefined && (defaultChanged || typeChanged)) out.push(alterTable(table, `${column} SET DEFAULT ${now.default}`));
  if (was.nullable && !now.nullable && !now.primaryKey) {
    if (now.default !== undefined) out.push(`UPDATE ${ident(table)} SET ${ident(name)} = DEFAULT WHERE ${ident(name)} IS NULL;`);
    else if (!now.identity)
      refused.push({
        kind: 'unsupported',
        table,
        column: name,
        message: `making ${table}.${name} NOT NULL needs a value for rows holding NULL; add "default:" to the field or keep "nullable: true"`,
      });
    out.push(alterTable(table, `${column} SET NOT NULL`));
  }
  if (!was.nullable && now.nullable) out.push(alterTable(table, `${column} DROP NOT NULL`));
  if (!was.identity && now.identity) out.push(alterTable(table, `${column} ADD GENERATED BY DEFAULT AS IDENTITY`));
  return out;
}

/**
 * A check that runs before a narrowing type change: it counts the rows whose
 * value would not come back unchanged from the new type (a varchar cut short,
 * a fraction rounded) and stops the migration — its transaction rolls back —
 * naming the table, column and count, instead of letting the cast cut them.
 * A value the new type rejects outright (out of range, not a number) stops it
 * too, naming the table, column and PostgreSQL's reason.
 */
export function narrowingGuard(table: string, column: string, from: string, to: string): string {
  const c = ident(column);
  return [
    'DO $$',
    'DECLARE lost bigint;',
    'BEGIN',
    '  BEGIN',
    `    SELECT count(*) INTO lost FROM ${ident(table)} WHERE ${c} IS NOT NULL AND (${c}::${to})::${from} IS DISTINCT FROM ${c};`,
    '  EXCEPTION WHEN others THEN',
    `    RAISE EXCEPTION 'cannot change ${table}.${column} from ${from} to ${to}: a value cannot be converted (%)', SQLERRM`,
    `      USING HINT = 'nothing was changed; fix the rows holding such values, then run bindery migrate again';`,
    '  END;',
    '  IF lost > 0 THEN',
    `    RAISE EXCEPTION 'cannot change ${table}.${column} from ${from} to ${to}: % row(s) hold a value that does not fit', lost`,
    `      USING HINT = 'nothing was changed; fix those rows (e.g. SELECT * FROM ${table} WHERE ${column}::${to}::${from} IS DISTINCT FROM ${column}), then run bindery migrate again';`,
    '  END IF;',
    'END $$;',
  ].join('\n');
}

/** True when every value of type `from` fits `to` unchanged. */
function widens(from: string, to: string): boolean {
  const a = /^(.*?)(\[\])?$/.exec(from)!;
  const b = /^(.*?)(\[\])?$/.exec(to)!;
  if (Boolean(a[2]) !== Boolean(b[2])) return false;
  const [x, y] = [a[1]!, b[1]!];
  const len = (t: string): number | undefined => (/^varchar\((\d+)\)$/.exec(t) ? Number(/^varchar\((\d+)\)$/.exec(t)![1]) : undefined);
  if (len(x) !== undefined) return y === 'text' || (len(y) !== undefined && len(y)! >= len(x)!);
  if (x === 'integer') return y === 'bigint' || y === 'double precision';
  return false;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
