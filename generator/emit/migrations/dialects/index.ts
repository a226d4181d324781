/**
 * The migration dialects (docs/generator.md "Migrations", "Databases"): the
 * one place the generator chooses the DDL its migrations are written in, by
 * the engines of the project's `bindery.databases` setting.
 */
import type { MigrationDialect, MigrationEngine } from '../dialect.js';
import { mysqlDialect } from './mysql/index.js';
import { postgresDialect } from './postgres/index.js';

const DIALECTS: Readonly<Record<MigrationEngine, MigrationDialect>> = { postgres: postgresDialect, mysql: mysqlDialect };

/** The dialect of an engine's migrations (default PostgreSQL's). */
export function migrationDialect(engine: MigrationEngine = 'postgres'): MigrationDialect {
  return DIALECTS[engine];
}
