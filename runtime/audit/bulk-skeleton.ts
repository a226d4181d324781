/**
 * The skeleton every bulk write shares (docs/audit.md "Bulk writes"): lock
 * the selected keys in key order, reserve the `audit_bulk` entry's ID, write
 * chunks of 1,000 keys (each also storing its keys in `audit_bulk_items`
 * and, while under `AUDIT_BULK_MAX_VALUES`, returning the values before and
 * after), refuse a chunk that changed fewer rows than it holds, and write
 * the entry.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Attribution } from './attribution.js';
import type { AuditCore } from './core.js';
import { BULK_CHUNK, checkKey, rethrowWriteError } from './entries.js';
import { AuditBulkConflictError } from './errors.js';
import { runTransaction, type Runner, type WriteTarget } from './sql-runner.js';
import { quoteId, type ResolvedModel } from './tracked-config.js';
import type { AnyKysely } from '../db/any-kysely.js';

/** The rows a bulk write acts on: its conditions (soft-delete scope included) and limit. (framework-internal: not exported by an entry). */
export interface Selection {
  // biome-ignore lint/suspicious/noExplicitAny: the selection applies to select, update and delete builders of a table named at run time (see the Filter of bulk-query.ts).
  apply(query: any): any;
  readonly limit: number | undefined;
}

/** What a bulk entry records. */
export type Action = 'updated' | 'deleted' | 'restored' | 'force_deleted' | 'created' | 'upserted';
/** A row's or an entry's values by column. */
export type Values = Record<string, unknown>;

/** The `audit_bulk` entry of one bulk write. */
export interface BulkEntry {
  readonly action: Action;
  readonly rowCount: number;
  readonly where: { sql: string; args: unknown[] } | null;
  readonly assignments: Values | null;
  readonly before: Values | null;
  readonly after: Values | null;
  readonly complete: boolean;
}

/** What a chunk statement returns: the rows it wrote, and their values before and after while under the limit. */
export interface ChunkRow {
  readonly n: number;
  readonly before?: Values | null;
  readonly after?: Values | null;
}

/**
 * The common path of selected-row writes: lock the keys, write the chunks,
 * record the entry.
 */
export async function writeBulk(
  core: AuditCore,
  model: ResolvedModel,
  target: WriteTarget,
  a: Attribution,
  selection: Selection,
  chunkQuery: (keys: unknown[], bulkId: number, withValues: boolean) => RawBuilder<unknown>,
  entry: (rowCount: number, before: Values, after: Values, complete: boolean) => BulkEntry,
): Promise<number> {
  const db = core.db;
  const pk = model.pk;
  const max = core.settings.AUDIT_BULK_MAX_VALUES;
  try {
    return await runTransaction(target, async (run) => {
      let select = selection.apply(db.selectFrom(model.table).select(pk)).orderBy(pk);
      if (selection.limit !== undefined) select = select.limit(selection.limit);
      const keys = (await run.run<Values>(select.forUpdate().compile(), { prepare: false })).rows.map((r) => r[pk]);
      if (keys.length === 0) return 0;
      for (const key of keys) checkKey(model, key);
      const bulkId = await reserveBulkId(db, run);
      const before: Values = {};
      const after: Values = {};
      for (let offset = 0; offset < keys.length; offset += BULK_CHUNK) {
        const chunk = keys.slice(offset, offset + BULK_CHUNK);
        const room = Math.max(0, max - offset);
        const result = (await run.run<ChunkRow>(chunkQuery(chunk, bulkId, room > 0).compile(db))).rows[0]!;
        if (result.n !== chunk.length) throw new AuditBulkConflictError(model.table, chunk.length, result.n);
        for (const key of chunk.slice(0, room)) {
          const k = String(key);
          if (result.before && k in result.before) before[k] = result.before[k];
          if (result.after && k in result.after) after[k] = result.after[k];
        }
      }
      await insertBulkEntry(db, run, model, a, bulkId, entry(keys.length, before, after, keys.length <= max));
      return keys.length;
    });
  } catch (error) {
    rethrowWriteError(model, error);
  }
}

/** The `audit_bulk_items` insert of a chunk: one item per row of `source`. */
export function itemsInsert(model: ResolvedModel, bulkId: number, source: string): RawBuilder<unknown> {
  return sql`insert into audit_bulk_items (bulk_id, subject_type, subject_id) select cast(${bulkId} as bigint), ${sql.lit(model.table)}, cast(${sql.raw(`${source}.${quoteId(model.pk)}`)} as text) from ${sql.raw(source)}`;
}

/** The ID of the next `audit_bulk` entry, taken before the chunks that refer to it are written. */
export async function reserveBulkId(db: AnyKysely, run: Runner): Promise<number> {
  const result = await run.run<{ id: number }>(sql`select nextval(pg_get_serial_sequence('audit_bulk', 'id')) as id`.compile(db));
  return result.rows[0]!.id;
}

/** Write the `audit_bulk` entry. */
export async function insertBulkEntry(
  db: AnyKysely,
  run: Runner,
  model: ResolvedModel,
  a: Attribution,
  bulkId: number,
  entry: BulkEntry,
): Promise<void> {
  const json = (value: unknown) => (value === null ? null : JSON.stringify(value));
  await run.run(
    db
      .insertInto('audit_bulk')
      .values({
        id: bulkId,
        actor_type: a.actorType,
        actor_id: a.actorId,
        action: entry.action,
        subject_type: model.table,
        row_count: entry.rowCount,
        where_clause: json(entry.where),
        assignments: json(entry.assignments),
        values_before: json(entry.before),
        values_after: json(entry.after),
        values_complete: entry.complete,
        via_kind: a.viaKind,
        via_name: a.viaName,
        request_id: a.requestId,
        ip: a.ip,
      })
      .compile(),
  );
}
