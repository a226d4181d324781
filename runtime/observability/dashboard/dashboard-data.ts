/**
 * What the development dashboard reads from the database when a page is
 * asked for (docs/observability.md "The development dashboard"): the job
 * queue and the failed jobs, the mail outbox (the audit entries of a
 * request: `dashboard-audit.ts`). Each part answers `null` when the app
 * lacks it (no `jobs()`, no outbox table), so the page says so.
 */
import { sql } from 'kysely';
import type { AnyKysely } from '../../db/any-kysely.js';
import { findEngine } from '../../db/compiled-query.js';
import type { FailedJob, PendingJob, QueueBackend } from '../../jobs/backend.js';
import { readOutbox, type OutboxMessage } from '../../mail/outbox.js';

/** A job not finished yet (as the queue backend lists it). */
export type QueuedJobView = PendingJob;

/** The most rows a dashboard table shows. */
export const PAGE_ROWS = 100;

/** Whether a table exists, as the database's engine says (`false` on a Kysely instance bindery did not make). */
async function exists(db: AnyKysely, name: string): Promise<boolean> {
  return (await findEngine(db)?.tableExists(name)) === true;
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
