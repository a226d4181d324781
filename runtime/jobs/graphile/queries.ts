/**
 * graphile-worker's jobs in SQL (docs/jobs.md "Queue backends"): queuing
 * with `graphile_worker.add_job` on the caller's Kysely instance or
 * transaction (so a job queued in a rolled-back transaction never exists),
 * and reading the `graphile_worker.jobs` view for failed jobs, counts and the
 * dashboard's list. `quickAddJob` opens a pool per call, so it is never used
 * (CONTRIBUTING.md "Dependency notes").
 */
import { sql } from 'kysely';
import type { AnyKysely } from '../../db/any-kysely.js';
import type { FailedJob, JobToQueue, PendingJob, QueueCounts } from '../backend.js';

/**
 * Store a job with `graphile_worker.add_job` on `db` (a transaction when the caller queues inside one).
 * @returns graphile-worker's job ID (a decimal string).
 * @throws {Error} when graphile-worker returns no row (it always returns one).
 */
export async function addJob(db: AnyKysely, job: JobToQueue): Promise<string> {
  const result = await sql<{ id: string }>`select id::text as id from graphile_worker.add_job(
      ${job.name}::text,
      ${job.payload}::json,
      queue_name => ${job.queueName ?? null}::text,
      run_at => ${job.runAt ?? null}::timestamptz,
      max_attempts => ${job.maxAttempts ?? null}::int,
      job_key => ${job.jobKey ?? null}::text,
      priority => ${job.priority ?? null}::int
    )`.execute(db);
  const id = result.rows[0]?.id;
  if (id === undefined) throw new Error(`graphile_worker.add_job returned no row for "${job.name}"`);
  return id;
}

/** Every job whose last attempt failed and that no worker holds, oldest first. */
export async function failedJobs(db: AnyKysely): Promise<FailedJob[]> {
  const result = await sql<{
    id: string;
    task_identifier: string;
    attempts: number;
    max_attempts: number;
    run_at: Date;
    last_error: string;
  }>`
    select id::text as id, task_identifier, attempts, max_attempts, run_at, last_error
    from graphile_worker.jobs
    where last_error is not null and locked_at is null
    order by id`.execute(db);
  return result.rows.map((r) => ({
    id: r.id,
    name: r.task_identifier,
    attempts: r.attempts,
    maxAttempts: r.max_attempts,
    runAt: new Date(r.run_at),
    lastError: r.last_error,
    permanent: r.attempts >= r.max_attempts,
  }));
}

/** Make an unlocked job due now with its attempts counted from zero (`graphile_worker.reschedule_jobs`); `undefined` when none has that ID. */
export async function rescheduleJob(db: AnyKysely, id: string): Promise<{ id: string; name: string } | undefined> {
  const result = await sql<{ id: string; task_identifier: string }>`
    select r.id::text as id, t.identifier as task_identifier
    from graphile_worker.reschedule_jobs(array[${id}::bigint], run_at => now(), attempts => 0) as r
    join graphile_worker._private_tasks as t on t.id = r.task_id`.execute(db);
  const row = result.rows[0];
  return row === undefined ? undefined : { id: row.id, name: row.task_identifier };
}

/** The jobs by state, in one query. */
export async function jobCounts(db: AnyKysely): Promise<QueueCounts> {
  const { rows } = await sql<QueueCounts>`
        select
          count(*) filter (where locked_at is null and attempts < max_attempts and run_at <= now())::int as queued,
          count(*) filter (where locked_at is null and attempts < max_attempts and run_at > now())::int as waiting,
          count(*) filter (where locked_at is not null)::int as running,
          count(*) filter (where locked_at is null and attempts >= max_attempts)::int as failed
        from graphile_worker.jobs`.execute(db);
  return rows[0] ?? { queued: 0, waiting: 0, running: 0, failed: 0 };
}

/** Jobs with attempts left or held by a worker, running first, then soonest; `null` before graphile-worker's schema exists. */
export async function pendingJobs(db: AnyKysely, limit: number): Promise<PendingJob[] | null> {
  const found = await sql<{ found: boolean }>`select to_regclass('graphile_worker.jobs') is not null as found`.execute(db);
  if (found.rows[0]?.found !== true) return null;
  const { rows } = await sql<{
    id: string;
    task_identifier: string;
    run_at: Date;
    attempts: number;
    max_attempts: number;
    locked_at: Date | null;
    last_error: string | null;
  }>`
    select id::text as id, task_identifier, run_at, attempts, max_attempts, locked_at, last_error
    from graphile_worker.jobs
    where attempts < max_attempts or locked_at is not null
    order by locked_at is null, run_at, id
    limit ${limit}`.execute(db);
  return rows.map((r) => ({
    id: r.id,
    name: r.task_identifier,
    runAt: new Date(r.run_at),
    attempts: r.attempts,
    maxAttempts: r.max_attempts,
    running: r.locked_at !== null,
    lastError: r.last_error,
  }));
}
