/**
 * Reading PostgreSQL migrations back: each statement the PostgreSQL dialect
 * writes (`ddl.ts`, `guards.ts`) as the change it makes to the tables
 * (`ReplayStep`), in bindery's own terms — PostgreSQL types as column types,
 * defaults as values. Anything else is a statement bindery did not write.
 */
import { columnTypeOfPostgres } from '../../../../../runtime/db/engines/postgres/column-types.js';
import type { ColumnChange, ReplayStep, UnreadableStatement } from '../../dialect.js';
import type { ColumnSnapshot } from '../../snapshot-types.js';
import { readDefault } from './defaults.js';
import { LIVE_ROWS } from './ddl.js';
import { columnOfDefinition } from '../column-definition.js';

type Reader = (m: RegExpExecArray) => ReplayStep | UnreadableStatement;

const ID = '"((?:[^"]|"")+)"';
const STATEMENTS: readonly [RegExp, Reader][] = [
  [re(`^CREATE TABLE ${ID} \\(\\n([\\s\\S]*)\\n\\);$`), (m) => createTable(name(m[1]), m[2]!)],
  [re(`^DROP TABLE ${ID};$`), (m) => ({ kind: 'dropTable', table: name(m[1]) })],
  [re(`^ALTER TABLE ${ID} ADD COLUMN ([\\s\\S]+);$`), (m) => addColumn(name(m[1]), m[2]!)],
  [re(`^ALTER TABLE ${ID} DROP COLUMN ${ID};$`), (m) => ({ kind: 'dropColumn', table: name(m[1]), column: name(m[2]) })],
  [re(`^ALTER TABLE ${ID} ALTER COLUMN ${ID} ([\\s\\S]+);$`), (m) => alterColumn(name(m[1]), name(m[2]), m[3]!)],
  [re(`^ALTER TABLE ${ID} DROP CONSTRAINT ${ID};$`), (m) => ({ kind: 'dropConstraint', table: name(m[1]), name: name(m[2]) })],
  [
    re(`^ALTER TABLE ${ID} ADD CONSTRAINT ${ID} CHECK \\(${ID} (?:IN \\(([\\s\\S]*)\\)|<@ ARRAY\\[([\\s\\S]*)\\]::text\\[\\])\\);$`),
    (m) => ({ kind: 'addCheck', table: name(m[1]), name: name(m[2]), column: name(m[3]), values: stringList(m[4] ?? m[5]!) }),
  ],
  [re(`^ALTER TABLE ${ID} RENAME TO ${ID};$`), (m) => ({ kind: 'renameTable', from: name(m[1]), to: name(m[2]) })],
  [
    re(`^ALTER TABLE ${ID} RENAME COLUMN ${ID} TO ${ID};$`),
    (m) => ({ kind: 'renameColumn', table: name(m[1]), from: name(m[2]), to: name(m[3]) }),
  ],
  [
    re(`^ALTER TABLE ${ID} RENAME CONSTRAINT ${ID} TO ${ID};$`),
    (m) => ({ kind: 'renameConstraint', table: name(m[1]), from: name(m[2]), to: name(m[3]) }),
  ],
  [
    re(`^ALTER INDEX ${ID} RENAME TO ${ID};$`),
    // A primary key's index (`<table>_pkey`, renamed with its table) is not among the recorded indexes.
    (m) => ({
      kind: 'renameIndex',
      from: name(m[1]),
      to: name(m[2]),
      primaryKey: name(m[1]).endsWith('_pkey') && name(m[2]).endsWith('_pkey'),
    }),
  ],
  [
    re(`^ALTER TABLE ${ID} ADD CONSTRAINT ${ID} FOREIGN KEY \\(${ID}\\) REFERENCES ${ID} \\(${ID}\\) ON DELETE ([A-Z ]+);$`),
    (m) => ({
      kind: 'addForeignKey',
      table: name(m[1]),
      name: name(m[2]),
      foreignKey: { column: name(m[3]), table: name(m[4]), references: name(m[5]), onDelete: m[6]!.toLowerCase() },
    }),
  ],
  [re(`^CREATE (UNIQUE )?INDEX ${ID} ON ${ID} \\(([^)]*)\\)(?: WHERE ([\\s\\S]+))?;$`), createIndex],
  [re(`^DROP INDEX ${ID};$`), (m) => ({ kind: 'dropIndex', name: name(m[1]) })],
  // Data statements and guards change no table shape.
  [/^UPDATE /, () => ({ kind: 'data' })],
  [/^DO \$\$[\s\S]*\$\$;$/, () => ({ kind: 'data' })],
];

/** What one statement bindery wrote for PostgreSQL does to the tables. */
export function readStatement(statement: string): ReplayStep | UnreadableStatement {
  const rule = STATEMENTS.find(([pattern]) => pattern.test(statement));
  return rule ? rule[1](rule[0].exec(statement)!) : { unreadable: 'it is not a statement bindery writes' };
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

function createTable(table: string, body: string): ReplayStep | UnreadableStatement {
  const columns: [string, ColumnSnapshot][] = [];
  for (const line of body.split(/,\n(?= {2}")/)) {
    const column = parseColumn(line.trim());
    if (!column) return { unreadable: `cannot read the column definition ${JSON.stringify(line.trim())}` };
    columns.push([column.name, column.snapshot]);
  }
  return { kind: 'createTable', table, columns };
}

function addColumn(table: string, definition: string): ReplayStep | UnreadableStatement {
  const column = parseColumn(definition);
  if (!column) return { unreadable: `cannot read the column definition ${JSON.stringify(definition)}` };
  return { kind: 'addColumn', table, column: column.name, definition: column.snapshot };
}

const CHANGES: Readonly<Record<string, ColumnChange['kind']>> = {
  'DROP DEFAULT': 'dropDefault',
  'DROP IDENTITY': 'dropIdentity',
  'ADD GENERATED BY DEFAULT AS IDENTITY': 'addIdentity',
  'SET NOT NULL': 'setNotNull',
  'DROP NOT NULL': 'dropNotNull',
};

function alterColumn(table: string, column: string, action: string): ReplayStep | UnreadableStatement {
  const unknown = { unreadable: `unknown column change ${JSON.stringify(action)}` };
  const type = /^TYPE (.+?) USING [\s\S]+$/.exec(action);
  const setDefault = /^SET DEFAULT ([\s\S]+)$/.exec(action);
  let change: ColumnChange;
  if (type) {
    const neutral = columnTypeOfPostgres(type[1]!);
    if (neutral === undefined) return unknown;
    change = { kind: 'type', type: neutral };
  } else if (setDefault) {
    const text = setDefault[1]!;
    change = { kind: 'setDefault', text, read: (t) => readDefault(text, t) };
  } else {
    const kind = CHANGES[action];
    if (kind === undefined) return unknown;
    change = { kind } as ColumnChange;
  }
  return { kind: 'alterColumn', table, column, change };
}

function createIndex(m: RegExpExecArray): ReplayStep | UnreadableStatement {
  if (m[5] !== undefined && m[5] !== LIVE_ROWS)
    return { unreadable: `the index condition ${JSON.stringify(m[5])} is not one bindery writes` };
  return {
    kind: 'createIndex',
    table: name(m[3]),
    name: name(m[2]),
    index: { columns: identList(m[4]!), unique: m[1] !== undefined, ...(m[5] !== undefined ? { live: true } : {}) },
  };
}

/** `"name" type[ GENERATED BY DEFAULT AS IDENTITY][ NOT NULL][ DEFAULT expr][ PRIMARY KEY]` (as `columnDefinition` writes it). */
function parseColumn(definition: string): { name: string; snapshot: ColumnSnapshot } | undefined {
  const m = new RegExp(`^${ID} (.+?)( GENERATED BY DEFAULT AS IDENTITY)?( NOT NULL)?(?: DEFAULT ([\\s\\S]+?))?( PRIMARY KEY)?$`).exec(
    definition,
  );
  if (!m) return undefined;
  const type = columnTypeOfPostgres(m[2]!);
  return columnOfDefinition(m, name(m[1]), type, readDefault);
}

/** The values of `'a', 'b'` (SQL string literals, `''` for a quote). */
function stringList(text: string): string[] {
  return [...text.matchAll(/'((?:[^']|'')*)'/g)].map((m) => m[1]!.replace(/''/g, "'"));
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
