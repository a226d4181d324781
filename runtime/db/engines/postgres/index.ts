/**
 * The PostgreSQL engine (docs/database.md "Engines"), and the pool under it
 * for the PostgreSQL strategies of the subsystems (the job queue on
 * graphile-worker, the audit log's single-statement writes).
 */
import type { DatabaseEngine } from '../../engine.js';
import type pg from 'pg';
import type { PostgresEngine } from './postgres-engine.js';

export { openPostgres, probePostgres, POSTGRES_CAPABILITIES, type PostgresEngine, type PostgresOptions } from './postgres-engine.js';
export { postgresType, columnTypeOfPostgres } from './column-types.js';
export { classifyPostgresError, postgresErrorDetail } from './errors.js';

/** Whether `engine` is PostgreSQL's. */
export function isPostgres(engine: DatabaseEngine): engine is PostgresEngine {
  return engine.name === 'postgres';
}

/**
 * The pg pool of a PostgreSQL database, for code that speaks PostgreSQL by
 * design (a strategy named for it).
 * @throws {TypeError} when the database is not PostgreSQL.
 */
export function postgresPoolOf(database: { readonly engine: DatabaseEngine }): pg.Pool {
  if (!isPostgres(database.engine)) throw new TypeError(`This needs PostgreSQL; the database is ${database.engine.name}.`);
  return database.engine.pool;
}
