/**
 * The migrator's strategy for an engine (`./strategy.ts` describes each
 * engine's failure model).
 */
import type { DatabaseEngine } from '../../engine.js';
import { mysqlMigrations } from './mysql.js';
import { postgresMigrations } from './postgres.js';
import type { MigrationStrategy } from './strategy.js';

/**
 * How migration files are applied on `engine`: PostgreSQL's one transaction
 * per file, or MySQL's and MariaDB's statement by statement.
 * @throws {TypeError} for an engine the migrator has no strategy for.
 */
export function migrationStrategyOf(engine: Pick<DatabaseEngine, 'name'>): MigrationStrategy {
  switch (engine.name) {
    case 'postgres':
      return postgresMigrations;
    case 'mysql':
    case 'mariadb':
      return mysqlMigrations(engine);
    default:
      throw new TypeError(
        `The migrator has no strategy for the database engine "${String(engine.name)}"; bindery migrates PostgreSQL, MySQL and MariaDB.`,
      );
  }
}
