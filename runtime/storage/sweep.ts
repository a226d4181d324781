/**
 * The orphan sweep (docs/storage.md "Orphans"): remove objects no row
 * holds — uploads older than `STORAGE_ORPHAN_AGE` that were never attached,
 * and objects detached by a committed write whose removal did not finish.
 * Run by the `storage:sweep` command and scheduled task.
 */
import { expiredPending } from './pending.js';
import { BinderyError } from '../errors/bindery-error.js';
import { Storage } from './storage.js';

/** What a sweep did. */
export interface SweepResult {
  /** Objects removed. */
  readonly removed: number;
  /** Objects that could not be removed (left for the next sweep). */
  readonly failed: number;
}

/** A detached object is swept once its entry is this old (ms): the write's own removal runs right after its commit. */
const DETACHED_GRACE_MS = 60_000;

/**
 * Remove orphans in batches of `batch` until none is left (or a batch
 * removed nothing).
 * @throws the database error when `storage_pending` cannot be read.
 */
export async function sweepOrphans(storage: Storage, options: { readonly batch?: number } = {}): Promise<SweepResult> {
  const batch = options.batch ?? 500;
  let removed = 0;
  let failed = 0;
  for (;;) {
    const orphans = await expiredPending(storage.db, storage.orphanAgeMs, DETACHED_GRACE_MS, batch);
    let done = 0;
    for (const o of orphans) {
      if (await storage.remove(o)) done++;
      else failed++;
    }
    removed += done;
    if (orphans.length < batch || done === 0) return { removed, failed };
  }
}

/**
 * The storage service of a booted app's services.
 * @throws {BinderyError} `BINDERY_SERVICE_NOT_SET_UP` when `storage()` is not in the app's setup list.
 */
export function storageOf(services: object): Storage {
  const storage = (services as { storage?: unknown }).storage;
  if (!(storage instanceof Storage))
    throw new BinderyError('BINDERY_SERVICE_NOT_SET_UP', 'The storage service is not set up: add storage() to the setup list of the app.');
  return storage;
}
