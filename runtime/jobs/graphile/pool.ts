/**
 * The worker's own pg pool (CONTRIBUTING.md "Dependency notes"): graphile-worker holds one
 * connection for LISTEN and one per running job, so it gets a pool of its
 * own, on the app's database, with plain pg types (graphile-worker reads its
 * bigint IDs as strings) and the `error` and `connect` listeners it asks for.
 */
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { Database } from '../../db/connect.js';

/**
 * A pool on the same database as `database`.
 * @param max connections (the worker's concurrency plus two).
 * @param applicationName shown in `pg_stat_activity`.
 */
export function createJobsPool(database: Database, max: number, applicationName: string, log: FastifyBaseLogger): pg.Pool {
  const connectionString = database.engine.url;
  const pool = new pg.Pool({ connectionString, max, application_name: applicationName, connectionTimeoutMillis: 10_000 });
  pool.on('error', (error) => log.warn({ err: error }, 'a worker database connection failed; the pool replaces it'));
  pool.on('connect', (client) => {
    client.on('error', (error) => log.warn({ err: error }, 'a worker database connection failed'));
  });
  return pool;
}
