/**
 * MySQL's prune batches (docs/audit.md "Retention, erasure and the prune
 * of deleted rows", "Engines"): the oldest entries by a `DELETE` that
 * orders and limits itself (MySQL takes no `LIMIT` in a subquery of `IN`);
 * bulk entries locked, then their items and themselves deleted by their
 * IDs, in one transaction.
 */
import { sql } from 'kysely';
import type { AuditWriter } from '../writer.js';

/** See {@link AuditWriter.pruneEntries}. */
export const mysqlPruneEntries: AuditWriter['pruneEntries'] = async (db, before, batch) => {
  const result = await sql`delete from audit_log where occurred_at < ${before} order by occurred_at, id limit ${batch}`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
};

/** See {@link AuditWriter.pruneBulk}. */
export const mysqlPruneBulk: AuditWriter['pruneBulk'] = (db, before, batch) =>
  db.transaction().execute(async (trx) => {
    const ids = (
      await sql<{
        id: number;
      }>`select id from audit_bulk where occurred_at < ${before} order by occurred_at, id limit ${batch} for update`.execute(trx)
    ).rows.map((r) => r.id);
    if (ids.length === 0) return 0;
    await trx.deleteFrom('audit_bulk_items').where('bulk_id', 'in', ids).execute();
    await trx.deleteFrom('audit_bulk').where('id', 'in', ids).execute();
    return ids.length;
  });
