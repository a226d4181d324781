/**
 * The MySQL queue's jobs in SQL (docs/jobs.md "Queue backends"): queuing on
 * the caller's Kysely instance or transaction (so a job queued in a
 * rolled-back transaction never exists), the replacement of a waiting job
 * by its `jobKey`, and reading `jobs_queue` for failed jobs, counts and the
 * dashboard's list. The semantics are graphile-worker's (`add_job`,
 * `reschedule_jobs`, its `jobs` view), so both backends answer alike.
 */
import { sql, type Selectable } from 'kysely';
import type { AnyKysely } from '../../db/any-kysely.js';
import { isUndefinedTable, isUniqueViolation } from '../../db/database-errors.js';
import type { FailedJob, JobToQueue, PendingJob, QueueCounts } from '../backend.js';
import { queueDb, type JobsQueueTable, type QueueDb } from './tables.js';

/** graphile-worker's defaults, so a job queued without options behaves the same on either backend. */
export const DEFAULT_MAX_ATTEMPTS = 25;
const DEFAULT_PRIORITY = 0;

/** The database's clock, to microseconds (sessions run in UTC). */
export const NOW = sql<Date>`CURRENT_TIMESTAMP(6)`;

/** How often a queuing by key that lost a race to another one for the same new key starts over. */
const KEY_RACE_TRIES = 3;

/** The row of a new job. */
function rowOf(job: JobToQueue) {
  return {
    task: job.name,
    payload: job.payload,
    queue_name: job.queueName ?? null,
    run_at: job.runAt ?? NOW,
    priority: job.priority ?? DEFAULT_PRIORITY,
    max_attempts: job.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
  };
}

/**
 * Store a job on `db` (a transaction when the caller queues inside one).
 * With a `jobKey`, a waiting job of that key is replaced (its payload and
 * options, attempts from zero, its revision counted) instead; a running one
 * keeps running without further attempts and loses the key to a new job —
 * what graphile-worker's `add_job` does in its `replace` mode.
 * @returns the job's ID (a decimal string).
 * @throws the driver's error (a missing table before `bindery migrate`, a value too long for its column).
 */
export async function enqueueJob(db: AnyKysely, job: JobToQueue): Promise<string> {
  const queue = queueDb(db);
  if (job.jobKey === undefined) return insertJob(queue, job);
  const key = job.jobKey;
  if (queue.isTransaction) return replaceByKey(queue, job, key);
  return queue.transaction().execute((tx) => replaceByKey(tx, job, key));
}

async function insertJob(db: QueueDb, job: JobToQueue, jobKey: string | null = null): Promise<string> {
  const result = await db
    .insertInto('jobs_queue')
    .values({ ...rowOf(job), job_key: jobKey })
    .executeTakeFirstOrThrow();
  return String(result.insertId);
}

/** The queuing by key, inside a transaction: the key's row is locked while it is looked at. */
async function replaceByKey(tx: QueueDb, job: JobToQueue, key: string): Promise<string> {
  for (let tries = 1; ; tries++) {
    const existing = await tx
      .selectFrom('jobs_queue')
      .select(['id', 'locked_by'])
      .where('job_key', '=', key)
      .forUpdate()
      .executeTakeFirst();
    if (existing !== undefined && existing.locked_by === null) {
      await tx
        .updateTable('jobs_queue')
        .set({ ...rowOf(job), revision: sql`revision + 1`, attempts: 0, last_error: null, updated_at: NOW })
        .where('id', '=', existing.id)
        .execute();
      return String(existing.id);
    }
    if (existing !== undefined) {
      // Running now: it finishes this attempt without another one, and the key goes to the new job.
      await tx
        .updateTable('jobs_queue')
        .set({ job_key: null, attempts: sql`max_attempts`, updated_at: NOW })
        .where('id', '=', existing.id)
        .execute();
    }
    try {
      return await insertJob(tx, job, key);
    } catch (error) {
      // Another transaction queued a new job with this key meanwhile: look again (a failed statement leaves the transaction usable).
      if (!isUniqueViolation(error) || tries >= KEY_RACE_TRIES) throw error;
    }
  }
}

/** Every job whose last attempt failed and that no worker holds, oldest first. */
export async function failedJobs(db: AnyKysely): Promise<FailedJob[]> {
  const rows = await queueDb(db)
    .selectFrom('jobs_queue')
    .select(['id', 'task', 'attempts', 'max_attempts', 'run_at', 'last_error'])
    .where('last_error', 'is not', null)
    .where('locked_by', 'is', null)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: String(r.id),
    name: r.task,
    attempts: r.attempts,
    maxAttempts: r.max_attempts,
    runAt: new Date(r.run_at),
    lastError: r.last_error ?? '',
    permanent: r.attempts >= r.max_attempts,
  }));
}

/**
 * Make an unlocked job due now with its attempts counted from zero (its last error stays until an attempt succeeds).
 * @returns its ID and name, or `undefined` when no job that no worker holds has that ID.
 */
export async function retryJob(db: AnyKysely, id: string): Promise<{ id: string; name: string } | undefined> {
  if (!/^\d{1,18}$/.test(id)) return undefined;
  const run = async (tx: QueueDb) => {
    const row = await tx
      .selectFrom('jobs_queue')
      .select(['id', 'task'])
      // As an unsigned integer on the server: a number in JavaScript would round an ID beyond 2^53.
      .where('id', '=', sql<number>`CAST(${id} AS UNSIGNED)`)
      .where('locked_by', 'is', null)
      .forUpdate()
      .executeTakeFirst();
    if (row === undefined) return undefined;
    await tx.updateTable('jobs_queue').set({ run_at: NOW, attempts: 0, updated_at: NOW }).where('id', '=', row.id).execute();
    return { id: String(row.id), name: row.task };
  };
  const queue = queueDb(db);
  return queue.isTransaction ? run(queue) : queue.transaction().execute(run);
}

/** The jobs by state, in one query. */
export async function jobCounts(db: AnyKysely): Promise<QueueCounts> {
  const { rows } = await sql<QueueCounts>`
    SELECT
      COUNT(CASE WHEN locked_by IS NULL AND attempts < max_attempts AND run_at <= CURRENT_TIMESTAMP(6) THEN 1 END) AS queued,
      COUNT(CASE WHEN locked_by IS NULL AND attempts < max_attempts AND run_at > CURRENT_TIMESTAMP(6) THEN 1 END) AS waiting,
      COUNT(CASE WHEN locked_by IS NOT NULL THEN 1 END) AS running,
      COUNT(CASE WHEN locked_by IS NULL AND attempts >= max_attempts THEN 1 END) AS failed
    FROM jobs_queue`.execute(db);
  const row = rows[0];
  return row === undefined
    ? { queued: 0, waiting: 0, running: 0, failed: 0 }
    : { queued: Number(row.queued), waiting: Number(row.waiting), running: Number(row.running), failed: Number(row.failed) };
}

/** Jobs with attempts left or held by a worker, running first, then soonest; `null` before the queue's table exists. */
export async function pendingJobs(db: AnyKysely, limit: number): Promise<PendingJob[] | null> {
  let rows: Pick<Selectable<JobsQueueTable>, 'id' | 'task' | 'run_at' | 'attempts' | 'max_attempts' | 'locked_by' | 'last_error'>[];
  try {
    rows = await queueDb(db)
      .selectFrom('jobs_queue')
      .select(['id', 'task', 'run_at', 'attempts', 'max_attempts', 'locked_by', 'last_error'])
      .where((eb) => eb.or([eb('attempts', '<', eb.ref('max_attempts')), eb('locked_by', 'is not', null)]))
      .orderBy(sql`locked_by IS NULL`)
      .orderBy('run_at')
      .orderBy('id')
      .limit(limit)
      .execute();
  } catch (error) {
    if (isUndefinedTable(error)) return null;
    throw error;
  }
  return rows.map((r) => ({
    id: String(r.id),
    name: r.task,
    runAt: new Date(r.run_at),
    attempts: r.attempts,
    maxAttempts: r.max_attempts,
    running: r.locked_by !== null,
    lastError: r.last_error,
  }));
}
