/**
 * MySQL's bulk writes of selected keys (docs/audit.md "Bulk writes",
 * "Engines"). The skeleton (bulk-skeleton.ts) has locked the keys
 * `FOR UPDATE` in key order; each chunk of up to 1,000 of them is then, on
 * the same transaction's connection: the values before (`… where key in
 * (…)`), the write, the values after, and the chunk's keys into
 * `audit_bulk_items`. The write's count is what the server matched (mysql2
 * asks for found rows), so a chunk that changed fewer rows than it holds
 * fails the whole write. There are no sequences: the entry's ID is that of
 * an `audit_bulk` row inserted first and filled in last.
 */
import { CompiledQuery, sql } from 'kysely';
import type { AnyKysely } from '../../../db/any-kysely.js';
import { runStatement, type Runner } from '../../sql-runner.js';
import type { ResolvedModel } from '../../tracked-config.js';
import type { AuditWriter, ChunkRow, Values } from '../writer.js';
import { jsonOrNull } from './json.js';
import { lastInsertId } from './keys.js';
import { entryValues, selectRow } from './rows.js';
import { tableInfo, type TableInfo } from './table-info.js';

/** Chunk statements run unprepared: a thousand keys make a statement text of its own. */
export const UNPREPARED = { prepare: false } as const;

/** Store the chunk's keys in `audit_bulk_items` under `bulkId`. */
export async function insertItems(
  db: AnyKysely,
  run: Runner,
  model: ResolvedModel,
  bulkId: number,
  keys: readonly unknown[],
): Promise<void> {
  if (keys.length === 0) return;
  const items = keys.map((key) => ({ bulk_id: bulkId, subject_type: model.table, subject_id: String(key) }));
  await run.run(db.insertInto('audit_bulk_items').values(items).compile(), UNPREPARED);
}

/** The values of `columns` of the rows of `keys`, by key as text. */
async function valuesOf(
  db: AnyKysely,
  run: Runner,
  model: ResolvedModel,
  info: TableInfo,
  keys: readonly unknown[],
  columns: readonly string[],
): Promise<Values> {
  const read = selectRow(db, model, info, [...new Set([model.pk, ...columns])]).where(model.pk, 'in', keys);
  const out: Values = {};
  for (const row of (await run.run<Values>(read.compile(), UNPREPARED)).rows)
    out[String(row[model.pk])] = entryValues(model, info, row, columns);
  return out;
}

/** The bulk half of MySQL's writer (the inserts and upserts of given rows: bulk-rows.ts). */
export const mysqlBulkWriter: Pick<
  AuditWriter,
  'reserveBulkId' | 'insertBulkEntry' | 'updateChunks' | 'deleteChunks' | 'upsertAssignment' | 'updateUnlogged'
> = {
  async reserveBulkId(_db, run) {
    await run.run(
      CompiledQuery.raw(
        "INSERT INTO audit_bulk (actor_type, action, subject_type, row_count, values_complete) VALUES ('', '', '', 0, FALSE)",
      ),
    );
    return lastInsertId(run);
  },

  async insertBulkEntry(db, run, model, a, bulkId, entry) {
    const update = db
      .updateTable('audit_bulk')
      .set({
        occurred_at: sql`current_timestamp(6)`,
        actor_type: a.actorType,
        actor_id: a.actorId,
        action: entry.action,
        subject_type: model.table,
        row_count: entry.rowCount,
        where_clause: jsonOrNull(entry.where),
        assignments: jsonOrNull(entry.assignments),
        values_before: jsonOrNull(entry.before),
        values_after: jsonOrNull(entry.after),
        values_complete: entry.complete,
        via_kind: a.viaKind,
        via_name: a.viaName,
        request_id: a.requestId,
        ip: a.ip,
      })
      .where('id', '=', bulkId);
    await run.run(update.compile(), UNPREPARED);
  },

  updateChunks(db, model, set, logged) {
    return async (run, keys, bulkId, withValues): Promise<ChunkRow> => {
      const info = await tableInfo(run, model);
      const before = withValues ? await valuesOf(db, run, model, info, keys, logged) : null;
      const update = db.updateTable(model.table).set(set).where(model.pk, 'in', keys);
      const n = (await run.run(update.compile(), UNPREPARED)).rowCount;
      const after = withValues ? await valuesOf(db, run, model, info, keys, logged) : null;
      await insertItems(db, run, model, bulkId, keys);
      return { n, before, after };
    };
  },

  deleteChunks(db, model) {
    const logged = [...model.logged];
    return async (run, keys, bulkId, withValues): Promise<ChunkRow> => {
      const info = await tableInfo(run, model);
      const before = withValues ? await valuesOf(db, run, model, info, keys, logged) : null;
      const n = (await run.run(db.deleteFrom(model.table).where(model.pk, 'in', keys).compile(), UNPREPARED)).rowCount;
      await insertItems(db, run, model, bulkId, keys);
      return { n, before };
    };
  },

  upsertAssignment(column) {
    return { sql: `values(\`${column}\`)`, args: [] };
  },

  async updateUnlogged(db, target, model, selection, set) {
    let update = selection.apply(db.updateTable(model.table).set(set));
    // MySQL takes no LIMIT in a subquery of IN, nor a subquery on the table updated: the update orders and limits itself.
    if (selection.limit !== undefined) update = update.orderBy(model.pk).limit(sql.lit(selection.limit));
    return (await runStatement(target, update.compile())).rowCount;
  },
};
