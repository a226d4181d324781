/**
 * The entries of `storage_pending` old enough to sweep, on PostgreSQL
 * (docs/storage.md "Orphans"): the age is measured on the database's clock,
 * which wrote `created_at`.
 */
import { sql } from 'kysely';
import type { AnyKysely } from '../db/any-kysely.js';

/** The sweep's query on PostgreSQL (see `expiredPending`). */
export async function postgresExpiredPending(
  db: AnyKysely,
  uploadedAgeMs: number,
  detachedAgeMs: number,
  limit: number,
): Promise<{ disk: string; key: string; state: 'uploaded' | 'detached' }[]> {
  const result = await sql<{ disk: string; key: string; state: 'uploaded' | 'detached' }>`select disk, key, state from storage_pending
    where (state = 'uploaded' and created_at < now() - make_interval(secs => ${uploadedAgeMs / 1000}))
       or (state = 'detached' and created_at < now() - make_interval(secs => ${detachedAgeMs / 1000}))
    order by created_at limit ${limit}`.execute(db);
  return result.rows;
}
