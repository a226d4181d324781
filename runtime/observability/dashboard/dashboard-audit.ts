/**
 * The audit entries of one request on the development dashboard
 * (docs/observability.md "The development dashboard"): the rows of
 * `audit_log` and `audit_bulk` written with its request ID, read with SQL
 * every engine runs (its casts come from the engine).
 */
import { sql, type Expression } from 'kysely';
import type { Database } from '../../db/connect.js';
import { PAGE_ROWS } from './dashboard-data.js';

/** An audit entry (one row's change, or a bulk write) written by a request or the jobs it queued. */
export interface AuditEntryView {
  readonly kind: 'row' | 'bulk';
  readonly id: string;
  readonly occurredAt: Date;
  readonly action: string;
  readonly subject: string;
  readonly actor: string;
  readonly via: string;
  /** The recorded changes (row entries) or the number of rows (bulk entries), as JSON text. */
  readonly detail: string;
}

/**
 * The audit entries written with this request ID, oldest first (at most {@link PAGE_ROWS}).
 * @param database the app's database: its Kysely instance and its engine.
 * @returns the entries, or `null` when the app has no audit tables (no `audit()`).
 */
export async function auditEntriesOf(database: Pick<Database, 'db' | 'engine'>, requestId: string): Promise<AuditEntryView[] | null> {
  const { db, engine } = database;
  if (!(await engine.tableExists('audit_log'))) return null;
  const text = (column: string): Expression<unknown> => engine.sql.cast(sql.ref(column), 'text');
  const { rows } = await sql<{
    kind: 'row' | 'bulk';
    id: string;
    occurred_at: Date;
    action: string;
    subject: string;
    actor: string;
    via: string;
    detail: string;
  }>`
    select 'row' as kind, ${text('id')} as id, occurred_at, action,
           concat_ws(' ', subject_type, subject_id) as subject, concat_ws(':', actor_type, actor_id) as actor,
           concat_ws(' ', via_kind, via_name) as via, coalesce(${text('changes')}, ${text('properties')}, '') as detail
    from audit_log where request_id = ${requestId}
    union all
    select 'bulk', ${text('id')}, occurred_at, action, subject_type, concat_ws(':', actor_type, actor_id),
           concat_ws(' ', via_kind, via_name), concat(${text('row_count')}, ' rows')
    from audit_bulk where request_id = ${requestId}
    order by occurred_at, id
    limit ${PAGE_ROWS}`.execute(db);
  return rows.map((r) => ({
    kind: r.kind,
    id: r.id,
    occurredAt: new Date(r.occurred_at),
    action: r.action,
    subject: r.subject,
    actor: r.actor,
    via: r.via,
    detail: r.detail,
  }));
}
