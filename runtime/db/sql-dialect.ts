/**
 * Which SQL a Kysely instance speaks (docs/database.md "Writing portable
 * queries"): what the portable writes compile to, and how a subsystem
 * holding only a Kysely instance (or a transaction of it) chooses its
 * statements when they differ by engine — the cache's counters, the session
 * rows, the sweep of pending uploads.
 */
import { MysqlAdapter } from 'kysely';
import { isPostgresAdapter } from './engines/postgres/adapter.js';
import type { AnyKysely } from './any-kysely.js';

/**
 * The SQL families bindery speaks: PostgreSQL's, and MySQL's (MySQL and
 * MariaDB, which Kysely drives through one dialect).
 */
export type SqlDialect = 'postgres' | 'mysql';

/**
 * The SQL family of `db`, read from its dialect's adapter (a transaction
 * has its database's).
 * @throws {TypeError} when the dialect is neither PostgreSQL's nor MySQL's (a Kysely instance bindery did not make).
 * @example
 *   const counters = sqlDialectOf(db) === 'postgres' ? postgresCounters : mysqlCounters;
 */
export function sqlDialectOf(db: AnyKysely): SqlDialect {
  const adapter = db.getExecutor().adapter;
  if (isPostgresAdapter(adapter)) return 'postgres';
  if (adapter instanceof MysqlAdapter) return 'mysql';
  throw new TypeError(`bindery speaks PostgreSQL and MySQL; this Kysely instance's dialect is ${adapter.constructor.name}.`);
}

/**
 * The strategy of `db`'s SQL family among a subsystem's, one per family
 * (each in a file named for its engine: `pending.postgres.ts`).
 * @param what the subsystem, for the error (`the orphan sweep`).
 * @throws {TypeError} when the family has no strategy.
 * @example
 *   const expired = strategyOf(db, { postgres: postgresExpiredPending }, 'The orphan sweep');
 */
export function strategyOf<S>(db: AnyKysely, strategies: Readonly<Partial<Record<SqlDialect, S>>>, what: string): S {
  const dialect = sqlDialectOf(db);
  const strategy = strategies[dialect];
  if (strategy === undefined) throw new TypeError(`${what} has no statements for ${dialect} yet.`);
  return strategy;
}
