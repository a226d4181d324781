/**
 * The `database` cache driver (`CACHE_DRIVER=database`, the default): the
 * table `bindery_cache` of the migration set `cache`, shared by every
 * instance of the app. Values are written once for every engine; the
 * counters are each engine's own (`database-cache.<engine>.ts`): an
 * increment is atomic (one statement on PostgreSQL, a short transaction on
 * MySQL and MariaDB), so concurrent increments from several
 * instances never lose a count.
 */
import type { Cache, CounterState } from '../cache.js';
import { CacheError } from '../errors.js';
import { mysqlCounters } from './database-cache.mysql.js';
import { postgresCounters } from './database-cache.postgres.js';
import { toJson } from './json-value.js';
import type { AnyKysely } from '../../db/any-kysely.js';
import { upsert } from '../../db/portable-writes.js';
import { sqlDialectOf, type SqlDialect } from '../../db/sql-dialect.js';

/** The counter statements of an engine: atomic across instances. */
interface CounterStatements {
  /** Add one to `key`'s count in its window, or start a window of `windowMs` at 1 (expired, absent, not a number). */
  increment(db: AnyKysely, key: string, now: number, windowMs: number): Promise<CounterState>;
  /** The live count of `key` (0 and `resetAt` = `now` when none). */
  peek(db: AnyKysely, key: string, now: number): Promise<CounterState>;
}

/** The counter statements by SQL family. */
const COUNTERS: Readonly<Record<SqlDialect, CounterStatements | undefined>> = { postgres: postgresCounters, mysql: mysqlCounters };

/** A cache in the `bindery_cache` table. */
export class DatabaseCache implements Cache {
  readonly #db: AnyKysely;
  readonly #now: () => number;
  readonly #counters: CounterStatements;

  /**
   * @param db the app's Kysely instance.
   * @param now clock in milliseconds since the epoch (default `Date.now`); expiry is decided by this clock, not the database's.
   * @throws {CacheError} `BINDERY_CACHE_UNAVAILABLE` when the database's engine has no counter statements.
   */
  constructor(db: AnyKysely, now: () => number = Date.now) {
    this.#db = db;
    this.#now = now;
    const dialect = sqlDialectOf(db);
    const counters = COUNTERS[dialect];
    if (counters === undefined)
      throw new CacheError(`CACHE_DRIVER=database has no counters for ${dialect} yet; set CACHE_DRIVER=memory for a single instance.`);
    this.#counters = counters;
  }

  async get<T = unknown>(key: string): Promise<T | undefined> {
    const row = await this.#db
      .selectFrom('bindery_cache')
      .select('value')
      .where('key', '=', key)
      .where('expires_at', '>', this.#now())
      .executeTakeFirst();
    return row?.value as T | undefined;
  }

  async put(key: string, value: unknown, ttlMs: number): Promise<void> {
    // The JSON text, which the `value` column reads as JSON.
    await upsert(this.#db, 'bindery_cache', { key, value: toJson(value), expires_at: this.#now() + ttlMs }, { conflict: ['key'] });
  }

  async forget(key: string): Promise<void> {
    await this.#db.deleteFrom('bindery_cache').where('key', '=', key).execute();
  }

  increment(key: string, windowMs: number): Promise<CounterState> {
    return this.#counters.increment(this.#db, key, this.#now(), windowMs);
  }

  peek(key: string): Promise<CounterState> {
    return this.#counters.peek(this.#db, key, this.#now());
  }

  /** Delete expired rows. @returns how many were deleted. */
  async prune(): Promise<number> {
    const result = await this.#db.deleteFrom('bindery_cache').where('expires_at', '<=', this.#now()).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
