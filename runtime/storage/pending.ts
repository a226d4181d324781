/**
 * The table of objects no row holds (docs/storage.md "Orphans"):
 * `storage_pending`, migration set `storage`.
 *
 * An object is listed, state `uploaded`, before its first byte is written;
 * attaching it to a row deletes the entry in the row's transaction, so
 * "attached" commits or rolls back with the row. Detaching (a row replaced
 * or deleted) lists the old object, state `detached`, in the same
 * transaction: it is removed only once that commits. Whatever stays listed
 * — a request that never attached its upload, a crash — the sweep removes.
 */
import type { AnyKysely } from '../db/any-kysely.js';
import { upsert } from '../db/portable-writes.js';
import { strategyOf } from '../db/sql-dialect.js';
import { mysqlExpiredPending } from './pending.mysql.js';
import { postgresExpiredPending } from './pending.postgres.js';

/** Why an object is listed. */
export type PendingState = 'uploaded' | 'detached';

/** One listed object. */
export interface PendingObject {
  readonly disk: string;
  readonly key: string;
  readonly state: PendingState;
}

/** List an object (or mark a listed one `state`). */
export async function listPending(db: AnyKysely, object: PendingObject): Promise<void> {
  await upsert(db, 'storage_pending', { disk: object.disk, key: object.key, state: object.state }, { conflict: ['disk', 'key'] });
}

/** Remove an `uploaded` entry (the object is attached); false when there was none. */
export async function claimPending(db: AnyKysely, disk: string, key: string): Promise<boolean> {
  const result = await db
    .deleteFrom('storage_pending')
    .where('disk', '=', disk)
    .where('key', '=', key)
    .where('state', '=', 'uploaded')
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Whether `disk`/`key` is listed as `state`. */
export async function isPending(db: AnyKysely, disk: string, key: string, state: PendingState): Promise<boolean> {
  const row = await db
    .selectFrom('storage_pending')
    .select('disk')
    .where('disk', '=', disk)
    .where('key', '=', key)
    .where('state', '=', state)
    .executeTakeFirst();
  return row !== undefined;
}

/** Forget an entry (its object is gone). */
export async function forgetPending(db: AnyKysely, disk: string, key: string): Promise<void> {
  await db.deleteFrom('storage_pending').where('disk', '=', disk).where('key', '=', key).execute();
}

/** The sweep's query by SQL family. */
const EXPIRED = { postgres: postgresExpiredPending, mysql: mysqlExpiredPending };

/**
 * Entries the sweep removes: `uploaded` ones listed more than `uploadedAgeMs`
 * ago, `detached` ones more than `detachedAgeMs` ago (the write that detached
 * them committed, and whoever made it did not finish removing them), oldest
 * first, at most `limit`.
 */
export async function expiredPending(db: AnyKysely, uploadedAgeMs: number, detachedAgeMs: number, limit: number): Promise<PendingObject[]> {
  // The age is the database's to measure (it wrote `created_at`), in each engine's own time arithmetic.
  return strategyOf(db, EXPIRED, 'The orphan sweep')(db, uploadedAgeMs, detachedAgeMs, limit);
}
