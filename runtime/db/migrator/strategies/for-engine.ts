/**
 * The migrator's strategy for an engine (`./strategy.ts` describes each
 * engine's failure model).
 */
import type { DatabaseEngine } from '../../engine.js';
import { postgresMigrations } from './postgres.js';
import type { MigrationStrategy } from './strategy.js';

/**
 * How migration files are applied on `engine`.
 * @throws {TypeError} for an engine the migrator has no strategy for yet (only PostgreSQL has one).
 */
export function migrationStrategyOf(engine: DatabaseEngine): MigrationStrategy {
  if (engine.name === 'postgres') return postgresMigrations;
  throw new TypeError(`The migrator cannot apply migrations on ${engine.name} yet; bindery migrates PostgreSQL databases.`);
}
