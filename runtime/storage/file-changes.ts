/**
 * Keeping files with rows (docs/storage.md "Files of rows"): attaching an
 * upload to a row inside the row's transaction, and removing the objects of
 * replaced or deleted rows only after that transaction commits — never
 * before, and never when it rolls back.
 */
import type { Kysely, Transaction } from 'kysely';
import type { AnyKysely } from '../db/any-kysely.js';
import { uploadInvalid } from './errors.js';
import { safeFileName, type FileRef } from './file-ref.js';
import { claimPending, listPending } from './pending.js';
import type { Storage } from './storage.js';
import type { UploadedFile } from './uploaded-file.js';

/** The file work of one transaction: what it attached and detached. */
export class FileChanges {
  /** @internal Made by {@link withFiles}. */
  constructor(
    private readonly storage: Storage,
    private readonly trx: AnyKysely,
    private readonly detached: FileRef[],
  ) {}

  /**
   * Take `upload` for a row: its entry in `storage_pending` is deleted in this
   * transaction (so it is kept exactly when the row is), and its reference
   * returned to store in the row's `type: file` column. An upload held in
   * memory is stored first.
   * @param field the input field's name, for the error.
   * @throws {HttpError} 422 `BINDERY_UPLOAD_INVALID` when the upload was already taken or is unknown.
   */
  async attach(upload: UploadedFile, field = 'file'): Promise<FileRef> {
    let stored = upload.stored;
    if (stored === null) {
      const object = await this.storage.storeBuffer(upload.data ?? Buffer.alloc(0));
      stored = { disk: object.disk, key: object.key };
    }
    if (!(await claimPending(this.trx, stored.disk, stored.key)))
      throw uploadInvalid(field, `The ${field} upload is unknown or already used; upload the file again.`);
    return {
      disk: stored.disk,
      key: stored.key,
      name: safeFileName(upload.filename),
      size: upload.size,
      type: upload.type?.mime ?? 'application/octet-stream',
      checksum: upload.checksum,
    };
  }

  /**
   * The object of `ref` (a row's old file) is removed once this transaction
   * commits; `null` and `undefined` are ignored. It is listed as `detached`
   * in the transaction, so the sweep finishes the job if the process stops
   * between the commit and the removal.
   */
  detach(ref: FileRef | null | undefined): void {
    if (ref !== null && ref !== undefined) this.detached.push(ref);
  }

  /** @internal Write the `detached` entries (end of the transaction). */
  async flush(): Promise<void> {
    for (const ref of this.detached) await listPending(this.trx, { disk: ref.disk, key: ref.key, state: 'detached' });
  }
}

/**
 * Run `work` in a transaction of `db` with a {@link FileChanges}, then —
 * only if it committed — remove the objects it detached. A rollback keeps
 * every old object, and leaves new uploads to the request's cleanup.
 * @param db the app's Kysely instance (not a transaction: the removal must follow the commit).
 * @returns what `work` returned.
 * @example
 *   const user = await withFiles(storage, db, async (trx, files) => {
 *     const old = await trx.selectFrom('users').select('avatar').where('id', '=', id).forUpdate().executeTakeFirstOrThrow();
 *     const avatar = await files.attach(input.avatar, 'avatar');
 *     files.detach(old.avatar);
 *     return updateReturning(trx, 'users', id, { avatar });
 *   });
 */
export async function withFiles<DB, T>(
  storage: Storage,
  db: Kysely<DB>,
  work: (trx: Transaction<DB>, files: FileChanges) => Promise<T>,
): Promise<T> {
  const detached: FileRef[] = [];
  const result = await db.transaction().execute(async (trx) => {
    const files = new FileChanges(storage, trx as unknown as AnyKysely, detached);
    const value = await work(trx, files);
    await files.flush();
    return value;
  });
  for (const ref of detached) await storage.remove(ref);
  return result;
}
