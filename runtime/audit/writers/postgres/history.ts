/**
 * PostgreSQL's history query (docs/audit.md "History", "Engines"): a row's
 * entries and the bulk entries whose items name it, each side cut to one
 * page after the cursor, merged newest first; times are also read as the
 * exact text of their `to_json` form, which the cursor keeps.
 */
import { sql, type RawBuilder } from 'kysely';
import type { AuditWriter, HistoryCursor, HistoryRow } from '../writer.js';

/** See {@link AuditWriter.history}. */
export const postgresHistory: AuditWriter['history'] = async (db, subjectType, subjectId, limit, cursor) => {
  const result = await sql<HistoryRow>`select * from (
      (select 0 as kind, l.id, l.occurred_at, to_json(l.occurred_at) #>> '{}' as at_text, l.actor_type, l.actor_id, l.action, l.via_name, l.changes, l.properties, null::integer as row_count
        from audit_log l
        where l.subject_type = ${subjectType} and l.subject_id = ${subjectId}${after(cursor, 0, 'l')}
        order by l.occurred_at desc, l.id desc limit ${limit})
      union all
      (select 1 as kind, b.id, b.occurred_at, to_json(b.occurred_at) #>> '{}' as at_text, b.actor_type, b.actor_id, b.action, b.via_name, null::jsonb as changes, null::jsonb as properties, b.row_count
        from audit_bulk_items i join audit_bulk b on b.id = i.bulk_id
        where i.subject_type = ${subjectType} and i.subject_id = ${subjectId}${after(cursor, 1, 'b')}
        order by b.occurred_at desc, b.id desc limit ${limit})
    ) e order by occurred_at desc, kind, id desc limit ${limit}`.execute(db);
  return result.rows;
};

/** The condition of one side (`kind`, table alias `alias`) for the events after `cursor`. */
function after(cursor: HistoryCursor | undefined, kind: 0 | 1, alias: string): RawBuilder<unknown> {
  if (cursor === undefined) return sql``;
  const at = sql.raw(`${alias}.occurred_at`);
  const id = sql.raw(`${alias}.id`);
  const t = sql`cast(${cursor.at} as timestamptz)`;
  if (kind > cursor.kind) return sql` and ${at} <= ${t}`;
  if (kind < cursor.kind) return sql` and ${at} < ${t}`;
  return sql` and (${at} < ${t} or (${at} = ${t} and ${id} < ${cursor.id}))`;
}
