/**
 * The migration dialect of a project (docs/generator.md "Migrations"): the
 * one place the generator chooses the engine its migrations are written for.
 * bindery writes PostgreSQL's; the project's engine setting will choose here.
 */
import type { MigrationDialect } from '../dialect.js';
import { postgresDialect } from './postgres/index.js';

/** The dialect the project's migrations are written in: PostgreSQL's. */
export function migrationDialect(): MigrationDialect {
  return postgresDialect;
}
