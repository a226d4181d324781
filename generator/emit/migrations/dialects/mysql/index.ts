/**
 * The MySQL migration dialect, for MySQL 8.0.16+ and MariaDB 10.6+
 * (docs/database.md "MySQL and MariaDB"): bindery's column types as MySQL's
 * (`runtime/db/engines/mysql/column-types.ts`; an enum is a `VARCHAR(255)`
 * with a CHECK constraint), InnoDB tables in `utf8mb4_bin`, a column changed
 * by one `MODIFY COLUMN` with its whole definition, `unique: live` emulated
 * by a generated column (there are no partial indexes), and data checks as
 * procedures that stop a migration with a message naming the rows.
 */
import type { MigrationDialect } from '../../dialect.js';
import { checkName } from '../../names.js';
import {
  addEnumCheck,
  addForeignKey,
  alterTable,
  columnDefault,
  columnDefinition,
  columnSql,
  createIndex,
  createTable,
  dropIndex,
  ident,
  modifyColumn,
} from './ddl.js';
import { defaultSql } from './defaults.js';
import { auditSubjects, enumGuard, narrowingGuard } from './guards.js';
import { readStatement, statementsOf } from './read-ddl.js';

/** The migration statements of MySQL and MariaDB. */
export const mysqlDialect: MigrationDialect = {
  engine: 'mysql',
  columnType: (type) => columnSql({ type, nullable: true }),
  defaultValue: (value, type) => defaultSql(value, type),

  createTable,
  dropTable: (table) => `DROP TABLE ${ident(table)};`,
  renameTable: (from, to) => `RENAME TABLE ${ident(from)} TO ${ident(to)};`,
  // MySQL's primary key is always named PRIMARY.
  renamePrimaryKey: () => undefined,

  addColumn: (table, column, c) => alterTable(table, `ADD COLUMN ${columnDefinition(column, { ...c, primaryKey: false })}`),
  dropColumn: (table, column) => alterTable(table, `DROP COLUMN ${ident(column)}`),
  renameColumn: (table, from, to) => alterTable(table, `RENAME COLUMN ${ident(from)} TO ${ident(to)}`),
  dropIdentity: (table, column, c) => modifyColumn(table, column, { ...c, identity: false }),
  addIdentity: modifyColumn,
  dropDefault: (table, column) => alterTable(table, `ALTER COLUMN ${ident(column)} DROP DEFAULT`),
  setDefault: modifyColumn,
  changeType: (table, column, _from, to) => modifyColumn(table, column, to),
  typeChangeGuard: narrowingGuard,
  fillNulls: (table, column, c) => `UPDATE ${ident(table)} SET ${ident(column)} = ${columnDefault(c)} WHERE ${ident(column)} IS NULL;`,
  setNotNull: modifyColumn,
  dropNotNull: modifyColumn,
  modifyColumn,

  addEnumCheck: (table, column, c) => addEnumCheck(table, column, c),
  dropEnumCheck: (table, column) => alterTable(table, dropCheck(checkName(table, column))),
  // No RENAME CONSTRAINT: the CHECK is dropped and added again under its new name.
  renameEnumCheck: (table, from, to, column, c) => `${alterTable(table, dropCheck(from))}\n\n${addEnumCheck(table, column, c, to)}`,
  enumGuard,

  createIndex,
  dropIndex,
  renameIndex: (table, from, to) => alterTable(table, `RENAME INDEX ${ident(from)} TO ${ident(to)}`),

  addForeignKey,
  dropForeignKey: (table, name) => alterTable(table, `DROP FOREIGN KEY ${ident(name)}`),
  renameForeignKey: (table, from, to, fk) => `${alterTable(table, `DROP FOREIGN KEY ${ident(from)}`)}\n\n${addForeignKey(table, to, fk)}`,

  moveAuditSubjects: auditSubjects,

  statementsOf,
  readStatement,
};

/**
 * The clause dropping a CHECK on both servers: MariaDB has `DROP CONSTRAINT`
 * and no `DROP CHECK`; MySQL has `DROP CHECK` from 8.0.16 and `DROP
 * CONSTRAINT` only from 8.0.19. Each runs its own executable comment:
 * MariaDB's `/*M! … *\/`, MySQL's `/*!80016 … *\/` (which MariaDB skips).
 */
function dropCheck(name: string): string {
  return `/*M! DROP CONSTRAINT ${ident(name)} */ /*!80016 DROP CHECK ${ident(name)} */`;
}
