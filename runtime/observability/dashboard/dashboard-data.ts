/**
 * What the development dashboard reads from the database when a page is
 * asked for (docs/observability.md "The development dashboard"): the audit
 * entries a request wrote (by its request ID), the job queue and the failed
 * jobs, the mail outbox. Each part answers `null` when the app lacks it
 * (no `audit()`, no `jobs()`, no outbox table), so the page says so.
 */
import { sql } from 'kysely';
import type { AnyKysely } from '../../db/any-kysely.js';
import type { FailedJob, PendingJob, QueueBackend } from '../../jobs/backend.js';
import { readOutbox, type OutboxMessage } from '../../mail/outbox.js';

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

/** A job not finished yet (as the queue backend lists it). */
export type QueuedJobView = PendingJob;

/** The most rows a dashboard table shows. */
export const PAGE_ROWS = 100;

/** Whether a table (or view) exists, by its qualified name. */
async function exists(db: AnyKysely, name: string): Promise<boolean> {
  const { rows } = await sql<{ found: boolean }>`select to_regclass(${name}) is not null as found`.execute(db);
  return rows[0]?.found === true;
}

/** The audit entries written with this request ID, oldest first; `null` without the audit tables. */
export async function auditEntriesOf(db: AnyKysely, requestId: string): Promise<AuditEntryView[] | null> {
  if (!(await exists(db, 'audit_log'))) return null;
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
    select 'row' as kind, id::text as id, occurred_at, action,
           concat_ws(' ', subject_type, subject_id) as subject, concat_ws(':', actor_type, actor_id) as actor,
           concat_ws(' ', via_kind, via_name) as via, coalesce(changes::text, properties::text, '') as detail
    from audit_log where request_id = ${requestId}
    union all
    select 'bulk', id::text, occurred_at, action, subject_type, concat_ws(':', actor_type, actor_id),
           concat_ws(' ', via_kind, via_name), row_count::text || ' rows'
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

/**
 * The queue: jobs waiting or running (running first, then soonest) and the
 * failed ones, read through the app's queue backend; `null` without `jobs()`
 * (no backend) or before the backend's schema exists.
 */
export async function jobQueue(
  db: AnyKysely,
  backend: QueueBackend | undefined,
): Promise<{ readonly jobs: QueuedJobView[]; readonly failed: FailedJob[] } | null> {
  if (backend === undefined) return null;
  const jobs = await backend.pendingJobs(db, PAGE_ROWS);
  if (jobs === null) return null;
  return { jobs, failed: (await backend.failedJobs(db)).filter((j) => j.permanent).slice(0, PAGE_ROWS) };
}

/** The newest messages of the outbox; `null` without the outbox table (no `mail()`). */
export async function outbox(db: AnyKysely): Promise<OutboxMessage[] | null> {
  if (!(await exists(db, 'mail_outbox'))) return null;
  return readOutbox(db, { limit: PAGE_ROWS });
}

/** One message of the outbox, with its raw source; `undefined` when there is none of that ID. */
export async function outboxMessage(db: AnyKysely, id: number): Promise<(OutboxMessage & { readonly raw: string }) | undefined | null> {
  if (!(await exists(db, 'mail_outbox'))) return null;
  const { rows } = await sql<{
    id: number;
    message_id: string;
    sender: string;
    recipients: string[];
    subject: string;
    text_body: string;
    html_body: string | null;
    raw: string;
    created_at: Date;
  }>`select * from mail_outbox where id = ${id}`.execute(db);
  const row = rows[0];
  if (row === undefined) return undefined;
  return {
    id: Number(row.id),
    messageId: row.message_id,
    from: row.sender,
    to: row.recipients,
    subject: row.subject,
    text: row.text_body,
    html: row.html_body,
    links: [],
    sentAt: new Date(row.created_at),
    raw: row.raw,
  };
}
