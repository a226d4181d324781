/**
 * The MySQL and MariaDB engine (docs/database.md "MySQL and MariaDB"), and
 * the mysql2 pool under it for the MySQL strategies of the subsystems.
 */
import type { Pool } from 'mysql2';
import type { DatabaseEngine } from '../../engine.js';
import type { MysqlEngine } from './mysql-engine.js';

export { openMysql, probeMysql, MYSQL_CAPABILITIES, type MysqlEngine, type OpenedMysql } from './mysql-engine.js';
export type { MysqlOptions } from './pool-options.js';
export { mysqlType, columnTypeOfMysql } from './column-types.js';
export { classifyMysqlError } from './errors.js';
export { DatabaseCharsetError, DatabaseSqlModeError, DatabaseVersionError, mysqlServerOf } from './server-checks.js';

/** Whether `engine` is the MySQL engine (on a MySQL or a MariaDB server). */
export function isMysql(engine: DatabaseEngine): engine is MysqlEngine {
  return engine.name === 'mysql' || engine.name === 'mariadb';
}

/**
 * The mysql2 pool of a MySQL or MariaDB database, for code that speaks MySQL
 * by design (a strategy named for it).
 * @throws {TypeError} when the database is not MySQL or MariaDB.
 */
export function mysqlPoolOf(database: { readonly engine: DatabaseEngine }): Pool {
  if (!isMysql(database.engine)) throw new TypeError(`This needs MySQL or MariaDB; the database is ${database.engine.name}.`);
  return database.engine.pool;
}
