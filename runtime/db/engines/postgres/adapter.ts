/**
 * Whether a Kysely adapter is PostgreSQL's: for neutral code holding only a
 * Kysely instance (or a transaction of it) that must choose its statements
 * by engine (`runtime/db/sql-dialect.ts`).
 */
import { PostgresAdapter } from 'kysely';

/** Whether `adapter` is Kysely's PostgreSQL adapter (or one derived from it). */
export function isPostgresAdapter(adapter: object): boolean {
  return adapter instanceof PostgresAdapter;
}
