/**
 * MySQL's history query (docs/audit.md "History", "Engines"): a row's
 * entries and the bulk entries whose items name it, each side cut to one
 * page after the cursor, merged newest first — PostgreSQL's query in
 * MySQL's SQL. Times are also read as the server's text with their
 * microseconds (`DATE_FORMAT`), which the cursor keeps, written as
 * PostgreSQL writes them (`…+00:00`); a cursor's time is read back in UTC.
 */
import { sql, type RawBuilder } from 'kysely';
import { utcText } from '../../../db/engines/mysql/sql.js';
import type { AuditWriter, HistoryCursor, HistoryRow } from '../writer.js';
import { instantJson } from './json.js';

const AT_TEXT = sql.raw(`'%Y-%m-%dT%H:%i:%s.%f'`);

/** A JSON column as read: parsed (mysql2 parses JSON columns; a union's may come as text). */
function parsed<T>(value: unknown): T | null {
  if (value === null || value === undefined) return null;
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

/** See {@link AuditWriter.history}. */
export const mysqlHistory: AuditWriter['history'] = async (db, subjectType, subjectId, limit, cursor) => {
  const result = await sql<HistoryRow>`select * from (
      (select 0 as kind, l.id, l.occurred_at, date_format(l.occurred_at, ${AT_TEXT}) as at_text, l.actor_type, l.actor_id, l.action, l.via_name, l.changes, l.properties, null as row_count
        from audit_log l
        where l.subject_type = ${subjectType} and l.subject_id = ${subjectId}${after(cursor, 0, 'l')}
        order by l.occurred_at desc, l.id desc limit ${limit})
      union all
      (select 1 as kind, b.id, b.occurred_at, date_format(b.occurred_at, ${AT_TEXT}) as at_text, b.actor_type, b.actor_id, b.action, b.via_name, null as changes, null as properties, b.row_count
        from audit_bulk_items i join audit_bulk b on b.id = i.bulk_id
        where i.subject_type = ${subjectType} and i.subject_id = ${subjectId}${after(cursor, 1, 'b')}
        order by b.occurred_at desc, b.id desc limit ${limit})
    ) e order by occurred_at desc, kind, id desc limit ${limit}`.execute(db);
  return result.rows.map((row) => ({
    ...row,
    kind: Number(row.kind) as 0 | 1,
    id: Number(row.id),
    at_text: instantJson(row.at_text),
    changes: parsed(row.changes),
    properties: parsed(row.properties),
    row_count: row.row_count === null ? null : Number(row.row_count),
  }));
};

/** The condition of one side (`kind`, table alias `alias`) for the events after `cursor`. */
function after(cursor: HistoryCursor | undefined, kind: 0 | 1, alias: string): RawBuilder<unknown> {
  if (cursor === undefined) return sql``;
  const at = sql.raw(`${alias}.occurred_at`);
  const id = sql.raw(`${alias}.id`);
  // The history's cursors hold UTC with an offset (`+00:00`); another offset is applied first.
  const t = sql`cast(${utcText(cursor.at)} as datetime(6))`;
  if (kind > cursor.kind) return sql` and ${at} <= ${t}`;
  if (kind < cursor.kind) return sql` and ${at} < ${t}`;
  return sql` and (${at} < ${t} or (${at} = ${t} and ${id} < ${cursor.id}))`;
}
