/**
 * MySQL and MariaDB statements of migrations (docs/database.md "MySQL and
 * MariaDB"). Identifiers are always backquoted, so reserved words (`order`,
 * `key`) are safe as names. Tables are InnoDB in `utf8mb4` with the
 * byte-exact `utf8mb4_bin` collation (keys, tokens and slugs compare as on
 * PostgreSQL); instants are `DATETIME(6)` holding UTC. Every statement
 * ends with `;` at the end of its line, the rule the migrator splits files
 * by (`runtime/db/migrator/strategies/statements.mysql.ts`).
 */
import { mysqlType } from '../../../../../runtime/db/engines/mysql/column-types.js';
import { checkName } from '../../names.js';
import type { ColumnSnapshot, ForeignKeySnapshot, IndexSnapshot, TableSnapshot } from '../../snapshot-types.js';
import { defaultSql, sqlString } from './defaults.js';

/** What every table is created with. */
export const TABLE_OPTIONS = 'ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin';

/** The live-rows condition of the emulated partial unique indexes (`unique: live`). */
export const LIVE_ROWS = '`deleted_at` IS NULL';

/** The type an enum column (a `string` with values) has: a `VARCHAR`, so that it can be indexed. */
export const ENUM_TYPE = 'VARCHAR(255)';

/** The characters of a non-unique index on a `LONGTEXT` column (a prefix: MySQL indexes at most 3072 bytes). */
export const TEXT_PREFIX = 768;

/** A backquoted identifier. */
export function ident(name: string): string {
  return `\`${name.replace(/`/g, '``')}\``;
}

/** The MySQL type of a column: its column type's, a `VARCHAR` for an enum. */
export function columnSql(c: ColumnSnapshot): string {
  return c.values !== undefined && c.type === 'string' ? ENUM_TYPE : mysqlType(c.type);
}

/** The `DEFAULT` expression of a column that has one. */
export function columnDefault(c: ColumnSnapshot): string {
  return defaultSql(c.default!, c.type, c.values !== undefined && c.type === 'string');
}

/** A column definition: type, AUTO_INCREMENT, NOT NULL, DEFAULT, PRIMARY KEY. */
export function columnDefinition(name: string, c: ColumnSnapshot): string {
  return [
    `${ident(name)} ${columnSql(c)}`,
    c.identity ? ' AUTO_INCREMENT' : '',
    !c.nullable && !c.identity && !c.primaryKey ? ' NOT NULL' : '',
    c.default !== undefined ? ` DEFAULT ${columnDefault(c)}` : '',
    c.primaryKey ? ' PRIMARY KEY' : '',
  ].join('');
}

/** `CREATE TABLE` with every column, InnoDB, utf8mb4_bin (indexes and foreign keys are separate statements). */
export function createTable(table: string, t: TableSnapshot): string {
  const columns = Object.entries(t.columns).map(([name, c]) => `  ${columnDefinition(name, c)}`);
  return `CREATE TABLE ${ident(table)} (\n${columns.join(',\n')}\n) ${TABLE_OPTIONS};`;
}

/** The generated column standing for `column` in an emulated live index: `<column>_live`. */
export function liveColumn(column: string): string {
  return `${column}_live`;
}

/**
 * What makes the generated columns invisible to `SELECT *` (so a row read
 * whole, `insertReturning`'s, never carries one), in versioned comments:
 * MySQL 8.0.23+ runs the first (MySQL 8.0.16–8.0.22, which have no
 * invisible columns, skip it: the column is then visible), MariaDB 10.3.3+
 * the second (it skips MySQL's comments of versions past 5.7).
 */
export const INVISIBLE = '/*!80023 INVISIBLE */ /*M!100303 INVISIBLE */';

/**
 * The definition of the generated column of {@link liveColumn}: the value on
 * live rows, NULL on soft-deleted ones. `STORED`, but `VIRTUAL` when `column`
 * has a foreign key that cascades or sets NULL on delete: MySQL refuses such
 * a key on the base column of a stored generated column.
 */
export function liveColumnDefinition(column: string, c: ColumnSnapshot, t?: TableSnapshot): string {
  const acting = Object.values(t?.foreignKeys ?? {}).some((fk) => fk.column === column && ['cascade', 'set null'].includes(fk.onDelete));
  return `${ident(liveColumn(column))} ${columnSql({ ...c, primaryKey: false })} AS (IF(${LIVE_ROWS}, ${ident(column)}, NULL)) ${acting ? 'VIRTUAL' : 'STORED'} ${INVISIBLE}`;
}

/** An index's column: a prefix of a `LONGTEXT` or longer `VARCHAR` column (non-unique indexes only: a unique one is refused before). */
function indexPart(column: string, c: ColumnSnapshot | undefined): string {
  const type = c === undefined ? '' : columnSql(c);
  const length = Number(/^VARCHAR\((\d+)\)$/.exec(type)?.[1] ?? 0);
  return type === 'LONGTEXT' || length > TEXT_PREFIX ? `${ident(column)}(${TEXT_PREFIX})` : ident(column);
}

/**
 * `CREATE [UNIQUE] INDEX`. A `live` index — unique among the rows not
 * soft-deleted, which MySQL and MariaDB cannot say (no partial indexes) — is
 * emulated: a generated column per indexed column, holding its value
 * while `deleted_at` is NULL and NULL after (NULLs never collide), and a
 * unique index on them with the index's own name, so a duplicate is
 * reported by the same name as on PostgreSQL.
 */
export function createIndex(table: string, name: string, i: IndexSnapshot, t: TableSnapshot): string {
  if (i.live) {
    const columns = i.columns.map((c) => `ADD COLUMN ${liveColumnDefinition(c, t.columns[c] ?? { type: 'string', nullable: true }, t)}`);
    return alterTable(
      table,
      `${columns.join(', ')}, ADD UNIQUE INDEX ${ident(name)} (${i.columns.map((c) => ident(liveColumn(c))).join(', ')})`,
    );
  }
  const parts = i.columns.map((c) => indexPart(c, t.columns[c]));
  return `CREATE ${i.unique ? 'UNIQUE ' : ''}INDEX ${ident(name)} ON ${ident(table)} (${parts.join(', ')});`;
}

/** Drop an index; an emulated live one with its generated columns. */
export function dropIndex(table: string, name: string, i: IndexSnapshot): string {
  if (i.live)
    return alterTable(table, [`DROP INDEX ${ident(name)}`, ...i.columns.map((c) => `DROP COLUMN ${ident(liveColumn(c))}`)].join(', '));
  return `DROP INDEX ${ident(name)} ON ${ident(table)};`;
}

/** `ALTER TABLE … ADD CONSTRAINT … FOREIGN KEY`. */
export function addForeignKey(table: string, name: string, fk: ForeignKeySnapshot): string {
  return `ALTER TABLE ${ident(table)} ADD CONSTRAINT ${ident(name)} FOREIGN KEY (${ident(fk.column)}) REFERENCES ${ident(fk.table)} (${ident(fk.references)}) ON DELETE ${fk.onDelete.toUpperCase()};`;
}

/** `ALTER TABLE <table> <action>;` */
export function alterTable(table: string, action: string): string {
  return `ALTER TABLE ${ident(table)} ${action};`;
}

/**
 * The condition of an enum column's CHECK constraint: `` `status` IN ('a', 'b') ``,
 * or for a list (a JSON array) `JSON_CONTAINS(JSON_ARRAY('a', 'b'), `labels`)`
 * (every item one of them). NULL passes, so `nullable` keeps its meaning.
 */
export function enumCondition(column: string, c: ColumnSnapshot): string {
  const values = (c.values ?? []).map(sqlString).join(', ');
  return c.type.endsWith('[]') ? `JSON_CONTAINS(JSON_ARRAY(${values}), ${ident(column)})` : `${ident(column)} IN (${values})`;
}

/** `ALTER TABLE … ADD CONSTRAINT <table>_<column>_check CHECK (…)` of an enum column. */
export function addEnumCheck(table: string, column: string, c: ColumnSnapshot, name = checkName(table, column)): string {
  return alterTable(table, `ADD CONSTRAINT ${ident(name)} CHECK (${enumCondition(column, c)})`);
}

/** `ALTER TABLE … MODIFY COLUMN` with the column's whole definition (a primary key stays one: it is not declared again). */
export function modifyColumn(table: string, column: string, c: ColumnSnapshot): string {
  return alterTable(table, `MODIFY COLUMN ${columnDefinition(column, { ...c, primaryKey: false })}`);
}
