/**
 * Re-deriving the tables from the migration files: each statement bindery
 * writes (see `sql.ts` and `diff.ts`) is read back and applied to an
 * in-memory set of tables. `generate` uses it to tell a hand-edited
 * `schema.snapshot.json` from a real one, and `--rebuild-snapshot` to write
 * the snapshot again after a migration was removed (docs/database.md "When a
 * migration fails").
 */
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

const ID = '"((?:[^"]|"")+)"';
const STATEMENTS: readonly [RegExp, (state: State, m: RegExpExecArray) => string | undefined][] = [
  [re(`^CREATE TABLE ${ID} \\(\\n([\\s\\S]*)\\n\\);$`), (s, m) => s.createTable(name(m[1]), m[2]!)],
  [re(`^DROP TABLE ${ID};$`), (s, m) => s.dropTable(name(m[1]))],
  [re(`^ALTER TABLE ${ID} ADD COLUMN ([\\s\\S]+);$`), (s, m) => s.addColumn(name(m[1]), m[2]!)],
  [re(`^ALTER TABLE ${ID} DROP COLUMN ${ID};$`), (s, m) => s.dropColumn(name(m[1]), name(m[2]))],
  [re(`^ALTER TABLE ${ID} ALTER COLUMN ${ID} ([\\s\\S]+);$`), (s, m) => s.alterColumn(name(m[1]), name(m[2]), m[3]!)],
  [re(`^ALTER TABLE ${ID} DROP CONSTRAINT ${ID};$`), (s, m) => s.dropConstraint(name(m[1]), name(m[2]))],
  [
    re(`^ALTER TABLE ${ID} ADD CONSTRAINT ${ID} CHECK \\(${ID} (?:IN \\(([\\s\\S]*)\\)|<@ ARRAY\\[([\\s\\S]*)\\]::text\\[\\])\\);$`),
    (s, m) => s.addCheck(name(m[1]), name(m[2]), name(m[3]), stringList(m[4] ?? m[5]!)),
  ],
  [re(`^ALTER TABLE ${ID} RENAME TO ${ID};$`), (s, m) => s.renameTable(name(m[1]), name(m[2]))],
  [re(`^ALTER TABLE ${ID} RENAME COLUMN ${ID} TO ${ID};$`), (s, m) => s.renameColumn(name(m[1]), name(m[2]), name(m[3]))],
  [re(`^ALTER TABLE ${ID} RENAME CONSTRAINT ${ID} TO ${ID};$`), (s, m) => s.renameConstraint(name(m[1]), name(m[2]), name(m[3]))],
  [re(`^ALTER INDEX ${ID} RENAME TO ${ID};$`), (s, m) => s.renameIndex(name(m[1]), name(m[2]))],
  [
    re(`^ALTER TABLE ${ID} ADD CONSTRAINT ${ID} FOREIGN KEY \\(${ID}\\) REFERENCES ${ID} \\(${ID}\\) ON DELETE ([A-Z ]+);$`),
    (s, m) =>
      s.addForeignKey(name(m[1]), name(m[2]), {
        column: name(m[3]),
        table: name(m[4]),
        references: name(m[5]),
        onDelete: m[6]!.toLowerCase(),
      }),
  ],
  [
    re(`^CREATE (UNIQUE )?INDEX ${ID} ON ${ID} \\(([^)]*)\\)(?: WHERE ([\\s\\S]+))?;$`),
    (s, m) =>
      s.createIndex(name(m[3]), name(m[2]), {
        columns: identList(m[4]!),
        unique: m[1] !== undefined,
        ...(m[5] !== undefined ? { where: m[5] } : {}),
      }),
  ],
  [re(`^DROP INDEX ${ID};$`), (s, m) => s.dropIndex(name(m[1]))],
  // Data statements and guards change no table shape.
  [/^UPDATE /, () => undefined],
  [/^DO \$\$[\s\S]*\$\$;$/, () => undefined],
];

/**
 * Apply the statements of `migrations` (name and text, in order) to an empty
 * set of tables.
 * @returns the tables, with columns in the order the statements create them;
 *   or the first statement that is not one bindery writes (a hand-written
 *   migration), with the reason.
 */
export function replayMigrations(migrations: readonly { readonly name: string; readonly sql: string }[]): Replayed {
  const state = new State();
  for (const migration of migrations) {
    for (const statement of statementsOf(migration.sql)) {
      const rule = STATEMENTS.find(([pattern]) => pattern.test(statement));
      const problem = rule ? rule[1](state, rule[0].exec(statement)!) : 'it is not a statement bindery writes';
      if (problem !== undefined) return { ok: false, migration: migration.name, statement: firstLine(statement), reason: problem };
    }
  }
  return { ok: true, tables: state.snapshot() };
}

/**
 * The statements of a migration file, each ending with its `;`, without
 * `--` comments. Semicolons inside string literals, quoted identifiers and
 * `$$ … $$` bodies do not end a statement.
 */
export function statementsOf(sql: string): string[] {
  const text = sql.replace(/\r\n/g, '\n');
  const statements: string[] = [];
  let current = '';
  let quote: "'" | '"' | '$$' | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote === undefined && ch === '-' && text[i + 1] === '-') {
      while (i < text.length && text[i] !== '\n') i++;
      current += '\n';
      continue;
    }
    if (quote === '$$' ? text.startsWith('$$', i) : quote === undefined && text.startsWith('$$', i)) {
      quote = quote === '$$' ? undefined : '$$';
      current += '$$';
      i++;
      continue;
    }
    if (ch === "'" || ch === '"') {
      if (quote === ch) quote = undefined;
      else if (quote === undefined) quote = ch;
    }
    current += ch;
    if (ch === ';' && quote === undefined) {
      statements.push(current.trim());
      current = '';
    }
  }
  if (current.trim() !== '') statements.push(current.trim());
  return statements;
}

class State {
  private readonly tables = new Map<string, MutableTable>();

  createTable(table: string, body: string): string | undefined {
    if (this.tables.has(table)) return `table ${table} already exists`;
    const t: MutableTable = { columns: {}, indexes: {}, foreignKeys: {}, checks: {} };
    for (const line of body.split(/,\n(?= {2}")/)) {
      const column = parseColumn(line.trim());
      if (!column) return `cannot read the column definition ${JSON.stringify(line.trim())}`;
      t.columns[column.name] = column.snapshot;
    }
    this.tables.set(table, t);
    return undefined;
  }

  dropTable(table: string): string | undefined {
    if (!this.tables.delete(table)) return `table ${table} does not exist`;
    return undefined;
  }

  addColumn(table: string, definition: string): string | undefined {
    const t = this.tables.get(table);
    const column = parseColumn(definition);
    if (!t) return `table ${table} does not exist`;
    if (!column) return `cannot read the column definition ${JSON.stringify(definition)}`;
    t.columns[column.name] = column.snapshot;
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

  alterColumn(table: string, column: string, action: string): string | undefined {
    const t = this.tables.get(table);
    const c = t?.columns[column];
    if (!t || !c) return `column ${table}.${column} does not exist`;
    let next: ColumnSnapshot;
    const type = /^TYPE (.+?) USING [\s\S]+$/.exec(action);
    const setDefault = /^SET DEFAULT ([\s\S]+)$/.exec(action);
    if (type) next = { ...c, type: type[1]! };
    else if (setDefault) next = { ...c, default: setDefault[1]! };
    else if (action === 'DROP DEFAULT') next = without(c, 'default');
    else if (action === 'DROP IDENTITY') next = without(c, 'identity');
    else if (action === 'ADD GENERATED BY DEFAULT AS IDENTITY') next = { ...c, identity: true };
    else if (action === 'SET NOT NULL') next = { ...c, nullable: false };
    else if (action === 'DROP NOT NULL') next = { ...c, nullable: true };
    else return `unknown column change ${JSON.stringify(action)}`;
    t.columns[column] = normalize(next);
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

  addCheck(table: string, key: string, column: string, values: readonly string[]): string | undefined {
    const t = this.tables.get(table);
    const c = t?.columns[column];
    if (!t || !c) return `column ${table}.${column} does not exist`;
    t.checks[key] = column;
    t.columns[column] = normalize({ ...c, values: sortedValues(values) });
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

  renameIndex(from: string, to: string): string | undefined {
    for (const t of this.tables.values()) {
      if (t.indexes[from]) {
        t.indexes[to] = t.indexes[from]!;
        delete t.indexes[from];
        return undefined;
      }
    }
    // A primary key's index (`<table>_pkey`, renamed with its table) is not among the recorded indexes.
    if (from.endsWith('_pkey') && to.endsWith('_pkey')) return undefined;
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

/** `"name" type[ GENERATED BY DEFAULT AS IDENTITY][ NOT NULL][ DEFAULT expr][ PRIMARY KEY]` (as `columnDefinition` writes it). */
function parseColumn(definition: string): { name: string; snapshot: ColumnSnapshot } | undefined {
  const m = new RegExp(`^${ID} (.+?)( GENERATED BY DEFAULT AS IDENTITY)?( NOT NULL)?(?: DEFAULT ([\\s\\S]+?))?( PRIMARY KEY)?$`).exec(
    definition,
  );
  if (!m) return undefined;
  const identity = m[3] !== undefined;
  const primaryKey = m[6] !== undefined;
  return {
    name: name(m[1]),
    snapshot: normalize({
      type: m[2]!,
      nullable: !(m[4] !== undefined || identity || primaryKey),
      ...(m[5] !== undefined ? { default: m[5] } : {}),
      ...(identity ? { identity: true } : {}),
      ...(primaryKey ? { primaryKey: true } : {}),
    }),
  };
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

/** The values of `'a', 'b'` (SQL string literals, `''` for a quote). */
function stringList(text: string): string[] {
  return [...text.matchAll(/'((?:[^']|'')*)'/g)].map((m) => m[1]!.replace(/''/g, "'"));
}

function without(c: ColumnSnapshot, key: 'default' | 'identity' | 'values'): ColumnSnapshot {
  const copy: Record<string, unknown> = { ...c };
  delete copy[key];
  return copy as unknown as ColumnSnapshot;
}

function re(source: string): RegExp {
  return new RegExp(source);
}

function name(quoted: string | undefined): string {
  return (quoted ?? '').replace(/""/g, '"');
}

function identList(text: string): string[] {
  return [...text.matchAll(new RegExp(ID, 'g'))].map((m) => name(m[1]));
}

function firstLine(statement: string): string {
  const line = statement.split('\n')[0]!;
  return line.length > 80 ? `${line.slice(0, 77)}…` : line;
}
