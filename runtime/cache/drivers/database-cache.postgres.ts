/**
 * The `database` cache driver's counters on PostgreSQL (docs/auth.md "The
 * cache"): an increment is one `INSERT … ON CONFLICT … DO UPDATE …
 * RETURNING` statement, so concurrent increments from several instances
 * never lose a count; the count is a jsonb number.
 */
import { sql } from 'kysely';
import type { CounterState } from '../cache.js';
import type { AnyKysely } from '../../db/any-kysely.js';

/** The counter statements of `DatabaseCache` on PostgreSQL. */
export const postgresCounters = {
  async increment(db: AnyKysely, key: string, now: number, windowMs: number): Promise<CounterState> {
    // A live numeric entry counts on in its window; an expired one (or a non-number) starts a new window at 1.
    const { rows } = await sql<{ count: string; expires_at: number }>`
      INSERT INTO bindery_cache AS c (key, value, expires_at) VALUES (${key}, '1'::jsonb, ${now + windowMs})
      ON CONFLICT (key) DO UPDATE SET
        value = CASE WHEN c.expires_at > ${now} AND jsonb_typeof(c.value) = 'number' THEN to_jsonb(c.value::numeric + 1) ELSE '1'::jsonb END,
        expires_at = CASE WHEN c.expires_at > ${now} AND jsonb_typeof(c.value) = 'number' THEN c.expires_at ELSE EXCLUDED.expires_at END
      RETURNING c.value::text AS count, c.expires_at`.execute(db);
    const row = rows[0]!;
    return { count: Number(row.count), resetAt: Number(row.expires_at) };
  },

  async peek(db: AnyKysely, key: string, now: number): Promise<CounterState> {
    const { rows } = await sql<{ count: string; expires_at: number }>`
      SELECT value::text AS count, expires_at FROM bindery_cache
      WHERE key = ${key} AND expires_at > ${now} AND jsonb_typeof(value) = 'number'`.execute(db);
    const row = rows[0];
    return row === undefined ? { count: 0, resetAt: now } : { count: Number(row.count), resetAt: Number(row.expires_at) };
  },
};
