/**
 * The `database` cache driver's counters on MySQL and MariaDB (docs/auth.md
 * "The cache"). MySQL evaluates an `ON DUPLICATE KEY UPDATE`'s assignments
 * left to right (a later one sees the earlier one's new value) and has no
 * `RETURNING`, so an increment is a short transaction instead of one
 * statement: the row read `FOR UPDATE`, then updated (counting on in its
 * window, or a new window at 1) or, absent, inserted. Transactions run at
 * READ COMMITTED (every connection of the engine is set so), where reading
 * an absent key locks no gap: two first increments of one key race on the
 * insert, and the one that meets the other's row reads it again (it waits
 * for the other's commit) and counts on.
 * Concurrent increments from several instances never lose a count.
 */
import type { Kysely, Transaction } from 'kysely';
import type { CounterState } from '../cache.js';
import type { AnyKysely } from '../../db/any-kysely.js';
import { isUniqueViolation } from '../../db/database-errors.js';

/** The columns of `bindery_cache` the counters read and write. */
interface CacheTable {
  key: string;
  value: unknown;
  expires_at: number;
}

type CacheDb = Kysely<{ bindery_cache: CacheTable }>;

/** How many times an increment meets a row inserted meanwhile before it gives up (one is all a race can cause). */
const INSERT_RACES = 3;

/** A count read from the `value` column: a JSON number (text on a server that does not say the column is JSON). */
function countOf(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && /^-?\d+(?:\.\d+)?(?:e[+-]?\d+)?$/i.test(value.trim())) return Number(value);
  return undefined;
}

/** One increment on `db` (a transaction). */
async function incrementIn(db: CacheDb, key: string, now: number, windowMs: number): Promise<CounterState> {
  for (let attempt = 1; ; attempt++) {
    const row = await db.selectFrom('bindery_cache').select(['value', 'expires_at']).where('key', '=', key).forUpdate().executeTakeFirst();
    if (row !== undefined) {
      const count = Number(row.expires_at) > now ? countOf(row.value) : undefined;
      const next = count === undefined ? { count: 1, resetAt: now + windowMs } : { count: count + 1, resetAt: Number(row.expires_at) };
      await db
        .updateTable('bindery_cache')
        .set({ value: JSON.stringify(next.count), expires_at: next.resetAt })
        .where('key', '=', key)
        .execute();
      return next;
    }
    try {
      await db
        .insertInto('bindery_cache')
        .values({ key, value: '1', expires_at: now + windowMs })
        .execute();
      return { count: 1, resetAt: now + windowMs };
    } catch (error) {
      // Another instance inserted the key since the read: read it again (the insert's failure undid only itself).
      if (!isUniqueViolation(error) || attempt >= INSERT_RACES) throw error;
    }
  }
}

/** The counter statements of `DatabaseCache` on MySQL and MariaDB. */
export const mysqlCounters = {
  increment(db: AnyKysely, key: string, now: number, windowMs: number): Promise<CounterState> {
    const cache = db as unknown as CacheDb;
    if (cache.isTransaction) return incrementIn(cache, key, now, windowMs);
    return cache.transaction().execute((tx: Transaction<{ bindery_cache: CacheTable }>) => incrementIn(tx, key, now, windowMs));
  },

  async peek(db: AnyKysely, key: string, now: number): Promise<CounterState> {
    const row = await (db as unknown as CacheDb)
      .selectFrom('bindery_cache')
      .select(['value', 'expires_at'])
      .where('key', '=', key)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    const count = row === undefined ? undefined : countOf(row.value);
    return count === undefined ? { count: 0, resetAt: now } : { count, resetAt: Number(row!.expires_at) };
  },
};
