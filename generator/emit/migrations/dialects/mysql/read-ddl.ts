/**
 * Reading MySQL migrations back: each statement the MySQL dialect writes
 * (`ddl.ts`, `guards.ts`) as the change it makes to the tables
 * (`ReplayStep`), in bindery's own terms. MySQL's types say less than the
 * column types (`LONGTEXT` is `string` and `text`, `JSON` also every list):
 * a column reads as the first column type of its MySQL type, which the
 * snapshot check compares by the MySQL type. Anything else is a statement
 * bindery did not write.
 */
import { columnTypeOfMysql } from '../../../../../runtime/db/engines/mysql/column-types.js';
import type { ReplayStep, UnreadableStatement } from '../../dialect.js';
import type { ColumnSnapshot } from '../../snapshot-types.js';
import { readDefault, splitItems, unquote } from './defaults.js';
import { ENUM_TYPE, INVISIBLE, LIVE_ROWS, TABLE_OPTIONS } from './ddl.js';
import { columnOfDefinition } from '../column-definition.js';

type Reader = (m: RegExpExecArray) => ReplayStep | UnreadableStatement;

const ID = '`((?:[^`]|``)+)`';
const LIVE_COLUMN = `ADD COLUMN ${ID} [^,]+? AS \\(IF\\(${LIVE_ROWS.replace(/[()]/g, '\\$&')}, ${ID}, NULL\\)\\) (?:STORED|VIRTUAL) ${INVISIBLE.replace(/[*!/]/g, '\\$&')}`;
const STATEMENTS: readonly [RegExp, Reader][] = [
  [re(`^CREATE TABLE ${ID} \\(\\n([\\s\\S]*)\\n\\) ${TABLE_OPTIONS};$`), (m) => createTable(name(m[1]), m[2]!)],
  [re(`^DROP TABLE ${ID};$`), (m) => ({ kind: 'dropTable', table: name(m[1]) })],
  [re(`^ALTER TABLE ${ID} ((?:${LIVE_COLUMN}, )+)ADD UNIQUE INDEX ${ID} \\(([^)]*)\\);$`), liveIndex],
  [re(`^ALTER TABLE ${ID} DROP INDEX ${ID}((?:, DROP COLUMN ${ID})+);$`), (m) => ({ kind: 'dropIndex', name: name(m[2]) })],
  [re(`^ALTER TABLE ${ID} ADD COLUMN ([\\s\\S]+);$`), (m) => addColumn(name(m[1]), m[2]!)],
  [re(`^ALTER TABLE ${ID} DROP COLUMN ${ID};$`), (m) => ({ kind: 'dropColumn', table: name(m[1]), column: name(m[2]) })],
  [re(`^ALTER TABLE ${ID} MODIFY COLUMN ([\\s\\S]+);$`), (m) => modifyColumn(name(m[1]), m[2]!)],
  [
    re(`^ALTER TABLE ${ID} ALTER COLUMN ${ID} DROP DEFAULT;$`),
    (m) => ({ kind: 'alterColumn', table: name(m[1]), column: name(m[2]), change: { kind: 'dropDefault' } }),
  ],
  [
    re(`^ALTER TABLE ${ID} DROP (?:CONSTRAINT|FOREIGN KEY) ${ID};$`),
    (m) => ({ kind: 'dropConstraint', table: name(m[1]), name: name(m[2]) }),
  ],
  [
    re(
      `^ALTER TABLE ${ID} ADD CONSTRAINT ${ID} CHECK \\((?:${ID} IN \\(([\\s\\S]*)\\)|JSON_CONTAINS\\(JSON_ARRAY\\(([\\s\\S]*)\\), ${ID}\\))\\);$`,
    ),
    (m) => ({
      kind: 'addCheck',
      table: name(m[1]),
      name: name(m[2]),
      column: name(m[3] ?? m[6]),
      values: stringList(m[4] ?? m[5]!),
      type: m[3] !== undefined ? 'string' : 'string[]',
    }),
  ],
  [re(`^RENAME TABLE ${ID} TO ${ID};$`), (m) => ({ kind: 'renameTable', from: name(m[1]), to: name(m[2]) })],
  [
    re(`^ALTER TABLE ${ID} RENAME COLUMN ${ID} TO ${ID};$`),
    (m) => ({ kind: 'renameColumn', table: name(m[1]), from: name(m[2]), to: name(m[3]) }),
  ],
  [
    re(`^ALTER TABLE ${ID} RENAME INDEX ${ID} TO ${ID};$`),
    (m) => ({ kind: 'renameIndex', from: name(m[2]), to: name(m[3]), primaryKey: false }),
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
  [
    re(`^CREATE (UNIQUE )?INDEX ${ID} ON ${ID} \\((.*)\\);$`),
    (m) => ({
      kind: 'createIndex',
      table: name(m[3]),
      name: name(m[2]),
      index: { columns: identList(m[4]!), unique: m[1] !== undefined },
    }),
  ],
  [re(`^DROP INDEX ${ID} ON ${ID};$`), (m) => ({ kind: 'dropIndex', name: name(m[1]) })],
  // Data statements and checks change no table shape.
  [/^UPDATE /, () => ({ kind: 'data' })],
  [/^(?:DROP PROCEDURE|CREATE PROCEDURE|CALL) /, () => ({ kind: 'data' })],
];

/** What one statement bindery wrote for MySQL does to the tables. */
export function readStatement(statement: string): ReplayStep | UnreadableStatement {
  const rule = STATEMENTS.find(([pattern]) => pattern.test(statement));
  return rule ? rule[1](rule[0].exec(statement)!) : { unreadable: 'it is not a statement bindery writes' };
}

/**
 * The statements of a migration file, without comments, each ending with its
 * `;`: the migrator's rule — a statement ends with a `;` at the end of a line,
 * outside quotes (`'…'`, `"…"`, `` `…` ``).
 */
export function statementsOf(sql: string): string[] {
  const statements: string[] = [];
  let current = '';
  let quote: string | undefined;
  for (const line of sql.replace(/\r\n/g, '\n').split('\n')) {
    if (quote === undefined && (current.trim() === '' ? /^\s*(--|#)/.test(line) : /^\s*--\s/.test(line))) continue;
    current += `${line}\n`;
    for (let i = 0; i < line.length; i++) {
      const ch = line[i]!;
      if (quote !== undefined && ch === '\\' && quote !== '`') i++;
      else if (ch === quote) quote = undefined;
      else if (quote === undefined && (ch === "'" || ch === '"' || ch === '`')) quote = ch;
    }
    if (quote === undefined && /;\s*$/.test(line)) {
      statements.push(current.trim());
      current = '';
    }
  }
  if (current.trim() !== '') statements.push(current.trim());
  return statements;
}

function createTable(table: string, body: string): ReplayStep | UnreadableStatement {
  const columns: [string, ColumnSnapshot][] = [];
  for (const line of body.split(/,\n(?= {2}`)/)) {
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

function modifyColumn(table: string, definition: string): ReplayStep | UnreadableStatement {
  const column = parseColumn(definition);
  if (!column) return { unreadable: `cannot read the column definition ${JSON.stringify(definition)}` };
  return { kind: 'modifyColumn', table, column: column.name, definition: column.snapshot };
}

/** The emulated live index: its generated columns stand for the indexed ones. */
function liveIndex(m: RegExpExecArray): ReplayStep {
  const columns = [...m[2]!.matchAll(new RegExp(LIVE_COLUMN, 'g'))].map((c) => name(c[2]));
  return { kind: 'createIndex', table: name(m[1]), name: name(m[5]), index: { columns, unique: true, live: true } };
}

/** `` `name` TYPE[ AUTO_INCREMENT][ NOT NULL][ DEFAULT expr][ PRIMARY KEY] `` (as `columnDefinition` writes it). */
function parseColumn(definition: string): { name: string; snapshot: ColumnSnapshot } | undefined {
  const m = new RegExp(`^${ID} ([A-Z]+(?:\\(\\d+\\))?)( AUTO_INCREMENT)?( NOT NULL)?(?: DEFAULT ([\\s\\S]+?))?( PRIMARY KEY)?$`).exec(
    definition,
  );
  if (!m) return undefined;
  // An enum's VARCHAR reads as the string of its length; its CHECK constraint, read next, makes it the enum's `string`.
  const type = m[2] === ENUM_TYPE ? 'string(255)' : m[2] === 'BOOLEAN' ? 'boolean' : columnTypeOfMysql(m[2]!);
  return columnOfDefinition(m, name(m[1]), type, (text) => readDefault(text));
}

/** The values of `'a', 'b'` (SQL string literals). */
function stringList(text: string): string[] {
  return (splitItems(text) ?? []).map(unquote);
}

function re(source: string): RegExp {
  return new RegExp(source);
}

function name(quoted: string | undefined): string {
  return (quoted ?? '').replace(/``/g, '`');
}

function identList(text: string): string[] {
  return [...text.matchAll(new RegExp(ID, 'g'))].map((m) => name(m[1]));
}
