/**
 * The entries of `storage_pending` old enough to sweep, on MySQL and MariaDB
 * (docs/storage.md "Orphans"): the age is measured on the database's clock,
 * in UTC, which wrote `created_at` (a `DATETIME(6)` holding UTC).
 */
import { sql } from 'kysely';
import type { AnyKysely } from '../db/any-kysely.js';

/** The sweep's query on MySQL and MariaDB (see `expiredPending`). */
export async function mysqlExpiredPending(
  db: AnyKysely,
  uploadedAgeMs: number,
  detachedAgeMs: number,
  limit: number,
): Promise<{ disk: string; key: string; state: 'uploaded' | 'detached' }[]> {
  const uploaded = Math.round(uploadedAgeMs * 1000);
  const detached = Math.round(detachedAgeMs * 1000);
  const result = await sql<{ disk: string; key: string; state: 'uploaded' | 'detached' }>`select disk, \`key\`, state from storage_pending
    where (state = 'uploaded' and created_at < utc_timestamp(6) - interval ${uploaded} microsecond)
       or (state = 'detached' and created_at < utc_timestamp(6) - interval ${detached} microsecond)
    order by created_at limit ${Math.trunc(limit)}`.execute(db);
  return result.rows;
}
