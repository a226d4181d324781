/**
 * The `database` cache driver's counters on MySQL and MariaDB (docs/auth.md
 * "The cache"). MySQL evaluates an `ON DUPLICATE KEY UPDATE`'s assignments
 * left to right (a later one sees the earlier one's new value) and has no
 * `RETURNING`, so an increment is a short transaction instead of one
 * statement: the key's row made sure of and locked by one `INSERT … ON
 * DUPLICATE KEY UPDATE` (a new row is a placeholder already expired; an
 * existing one is left as it is, locked exclusively), read, then updated —
 * counting on in its window, or a new window at 1. Concurrent first
 * increments of a key wait on the row's lock one after the other (no shared
 * lock to upgrade, so no deadlock between them); concurrent increments from
 * several instances never lose a count.
 */
import type { Kysely } from 'kysely';
import type { CounterState } from '../cache.js';
import type { AnyKysely } from '../../db/any-kysely.js';
import { isSerializationFailure } from '../../db/database-errors.js';

/** The columns of `bindery_cache` the counters read and write. */
interface CacheTable {
  key: string;
  value: unknown;
  expires_at: number;
}

type CacheDb = Kysely<{ bindery_cache: CacheTable }>;

/** How many times an increment in a transaction of its own runs when the server gives it up (a deadlock with other writes). */
const ATTEMPTS = 3;

/** The placeholder's expiry: before any clock's now, so the row reads as expired and the increment starts a window. */
const PLACEHOLDER_EXPIRY = -1;

/** A count read from the `value` column: a JSON number (text on a server that does not say the column is JSON). */
function countOf(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && /^-?\d+(?:\.\d+)?(?:e[+-]?\d+)?$/i.test(value.trim())) return Number(value);
  return undefined;
}

/** One increment on `db` (a transaction). */
async function incrementIn(db: CacheDb, key: string, now: number, windowMs: number): Promise<CounterState> {
  await db
    .insertInto('bindery_cache')
    .values({ key, value: '0', expires_at: PLACEHOLDER_EXPIRY })
    .onDuplicateKeyUpdate((eb) => ({ expires_at: eb.ref('expires_at') }))
    .execute();
  const row = await db
    .selectFrom('bindery_cache')
    .select(['value', 'expires_at'])
    .where('key', '=', key)
    .forUpdate()
    .executeTakeFirstOrThrow();
  const count = Number(row.expires_at) > now ? countOf(row.value) : undefined;
  const next = count === undefined ? { count: 1, resetAt: now + windowMs } : { count: count + 1, resetAt: Number(row.expires_at) };
  await db
    .updateTable('bindery_cache')
    .set({ value: JSON.stringify(next.count), expires_at: next.resetAt })
    .where('key', '=', key)
    .execute();
  return next;
}

/** The counter statements of `DatabaseCache` on MySQL and MariaDB. */
export const mysqlCounters = {
  async increment(db: AnyKysely, key: string, now: number, windowMs: number): Promise<CounterState> {
    const cache = db as unknown as CacheDb;
    // In the caller's transaction: a deadlock there rolls the caller's whole transaction back, so it is the caller's to retry.
    if (cache.isTransaction) return incrementIn(cache, key, now, windowMs);
    for (let attempt = 1; ; attempt++) {
      try {
        return await cache.transaction().execute((tx) => incrementIn(tx, key, now, windowMs));
      } catch (error) {
        if (!isSerializationFailure(error) || attempt >= ATTEMPTS) throw error;
      }
    }
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
