/**
 * The `database` cache driver (`CACHE_DRIVER=database`, the default): the
 * table `bindery_cache` of the migration set `cache`, shared by every
 * instance of the app. Counters are incremented in one statement
 * (`INSERT … ON CONFLICT … DO UPDATE … RETURNING`), so concurrent
 * increments from several instances never lose a count.
 */
import { sql } from 'kysely';
import type { Cache, CounterState } from '../cache.js';
import { toJson } from './json-value.js';
import type { AnyKysely } from '../../db/any-kysely.js';

/** A cache in the `bindery_cache` table. */
export class DatabaseCache implements Cache {
  readonly #db: AnyKysely;
  readonly #now: () => number;

  /**
   * @param db the app's Kysely instance.
   * @param now clock in milliseconds since the epoch (default `Date.now`); expiry is decided by this clock, not the database's.
   */
  constructor(db: AnyKysely, now: () => number = Date.now) {
    this.#db = db;
    this.#now = now;
  }

  async get<T = unknown>(key: string): Promise<T | undefined> {
    const { rows } = await sql<{ value: T }>`SELECT value FROM bindery_cache WHERE key = ${key} AND expires_at > ${this.#now()}`.execute(
      this.#db,
    );
    return rows[0]?.value;
  }

  async put(key: string, value: unknown, ttlMs: number): Promise<void> {
    const json = toJson(value);
    await sql`INSERT INTO bindery_cache (key, value, expires_at) VALUES (${key}, ${json}::jsonb, ${this.#now() + ttlMs})
      ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at`.execute(this.#db);
  }

  async forget(key: string): Promise<void> {
    await sql`DELETE FROM bindery_cache WHERE key = ${key}`.execute(this.#db);
  }

  async increment(key: string, windowMs: number): Promise<CounterState> {
    const now = this.#now();
    // A live numeric entry counts on in its window; an expired one (or a non-number) starts a new window at 1.
    const { rows } = await sql<{ count: string; expires_at: number }>`
      INSERT INTO bindery_cache AS c (key, value, expires_at) VALUES (${key}, '1'::jsonb, ${now + windowMs})
      ON CONFLICT (key) DO UPDATE SET
        value = CASE WHEN c.expires_at > ${now} AND jsonb_typeof(c.value) = 'number' THEN to_jsonb(c.value::numeric + 1) ELSE '1'::jsonb END,
        expires_at = CASE WHEN c.expires_at > ${now} AND jsonb_typeof(c.value) = 'number' THEN c.expires_at ELSE EXCLUDED.expires_at END
      RETURNING c.value::text AS count, c.expires_at`.execute(this.#db);
    const row = rows[0]!;
    return { count: Number(row.count), resetAt: Number(row.expires_at) };
  }

  async peek(key: string): Promise<CounterState> {
    const now = this.#now();
    const { rows } = await sql<{ count: string; expires_at: number }>`
      SELECT value::text AS count, expires_at FROM bindery_cache
      WHERE key = ${key} AND expires_at > ${now} AND jsonb_typeof(value) = 'number'`.execute(this.#db);
    const row = rows[0];
    return row === undefined ? { count: 0, resetAt: now } : { count: Number(row.count), resetAt: Number(row.expires_at) };
  }

  /** Delete expired rows. @returns how many were deleted. */
  async prune(): Promise<number> {
    const result = await sql`DELETE FROM bindery_cache WHERE expires_at <= ${this.#now()}`.execute(this.#db);
    return Number(result.numAffectedRows ?? 0n);
  }
}
