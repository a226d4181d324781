/**
 * The skeleton every bulk write shares (docs/audit.md "Bulk writes"): lock
 * the selected keys in key order, reserve the `audit_bulk` entry's ID, write
 * chunks of 1,000 keys or rows (each also storing its keys in
 * `audit_bulk_items` and, while under `AUDIT_BULK_MAX_VALUES`, returning the
 * values before and after), refuse a chunk that changed fewer rows than it
 * holds, and write the entry — all in one transaction. Each chunk's
 * statements are the engine's writer strategy's (writers/writer.ts).
 */
import type { Attribution } from './attribution.js';
import type { AuditCore } from './core.js';
import { BULK_CHUNK, checkKey, rethrowWriteError } from './entries.js';
import { AuditBulkConflictError } from './errors.js';
import { runTransaction, type WriteTarget } from './sql-runner.js';
import type { ResolvedModel } from './tracked-config.js';
import type { BulkEntry, KeyChunkWriter, RowChunkWriter, Selection, Values } from './writers/writer.js';

export type { Action, BulkEntry, ChunkRow, Selection, Values } from './writers/writer.js';

/**
 * The common path of selected-row writes: lock the keys, write the chunks,
 * record the entry.
 * @returns the number of rows written (0: nothing matched, nothing recorded).
 * @throws {AuditBulkConflictError} (409, retryable) when a chunk changed fewer rows than it holds; everything is rolled back.
 */
export async function writeBulk(
  core: AuditCore,
  model: ResolvedModel,
  target: WriteTarget,
  a: Attribution,
  selection: Selection,
  writeChunk: KeyChunkWriter,
  entry: (rowCount: number, before: Values, after: Values, complete: boolean) => BulkEntry,
): Promise<number> {
  const { db, writer } = core;
  const pk = model.pk;
  const max = core.settings.AUDIT_BULK_MAX_VALUES;
  try {
    return await runTransaction(target, async (run) => {
      let select = selection.apply(db.selectFrom(model.table).select(pk)).orderBy(pk);
      if (selection.limit !== undefined) select = select.limit(selection.limit);
      const keys = (await run.run<Values>(select.forUpdate().compile(), { prepare: false })).rows.map((r) => r[pk]);
      if (keys.length === 0) return 0;
      for (const key of keys) checkKey(model, key);
      const bulkId = await writer.reserveBulkId(db, run);
      const before: Values = {};
      const after: Values = {};
      for (let offset = 0; offset < keys.length; offset += BULK_CHUNK) {
        const chunk = keys.slice(offset, offset + BULK_CHUNK);
        const room = Math.max(0, max - offset);
        const result = await writeChunk(run, chunk, bulkId, room > 0);
        if (result.n !== chunk.length) throw new AuditBulkConflictError(model.table, chunk.length, result.n);
        for (const key of chunk.slice(0, room)) {
          const k = String(key);
          if (result.before && k in result.before) before[k] = result.before[k];
          if (result.after && k in result.after) after[k] = result.after[k];
        }
      }
      await writer.insertBulkEntry(db, run, model, a, bulkId, entry(keys.length, before, after, keys.length <= max));
      return keys.length;
    });
  } catch (error) {
    rethrowWriteError(model, error);
  }
}

/**
 * The common path of given-row writes (createMany, upsert): reserve the
 * entry, write the rows in chunks, record the entry with the values before
 * and after of the first `AUDIT_BULK_MAX_VALUES` rows.
 * @returns the number of rows written.
 * @throws {AuditBulkConflictError} (409, retryable) when a chunk wrote fewer rows than it holds; everything is rolled back.
 */
export async function writeRows(
  core: AuditCore,
  model: ResolvedModel,
  target: WriteTarget,
  a: Attribution,
  rows: readonly Values[],
  writeChunk: RowChunkWriter,
  entry: (before: Values, after: Values, complete: boolean) => BulkEntry,
): Promise<number> {
  const { db, writer } = core;
  const max = core.settings.AUDIT_BULK_MAX_VALUES;
  try {
    return await runTransaction(target, async (run) => {
      const bulkId = await writer.reserveBulkId(db, run);
      const before: Values = {};
      const after: Values = {};
      for (let offset = 0; offset < rows.length; offset += BULK_CHUNK) {
        const chunk = rows.slice(offset, offset + BULK_CHUNK);
        const room = Math.max(0, max - offset);
        const result = await writeChunk(run, chunk, bulkId, room);
        for (const [key, value] of result.before.slice(0, room)) before[key] = value;
        if (result.n !== chunk.length) throw new AuditBulkConflictError(model.table, chunk.length, result.n);
        for (const [key, value] of result.after.slice(0, room)) after[key] = value;
      }
      await writer.insertBulkEntry(db, run, model, a, bulkId, entry(before, after, rows.length <= max));
      return rows.length;
    });
  } catch (error) {
    rethrowWriteError(model, error);
  }
}
