/**
 * Failed jobs: reading graphile-worker's `graphile_worker.jobs` view and
 * rescheduling (docs/jobs.md "Failed jobs").
 */
import { sql } from 'kysely';
import { UnknownJobError } from './errors.js';
import type { AnyKysely } from '../db/any-kysely.js';

/** A job whose last attempt failed. */
export interface FailedJob {
  /** graphile-worker's job ID (decimal string). */
  readonly id: string;
  /** The job's (task's) name. */
  readonly name: string;
  readonly attempts: number;
  readonly maxAttempts: number;
  /** When it runs next (a retry), or ran last (failed for good). */
  readonly runAt: Date;
  /** The error of the last attempt, as graphile-worker stored it (message and stack). */
  readonly lastError: string;
  /** No attempts left: it stays until retried or deleted. */
  readonly permanent: boolean;
}

/** Every job whose last attempt failed, oldest first. */
export async function listFailedJobs(db: AnyKysely): Promise<FailedJob[]> {
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

/**
 * Make a waiting job due now with its attempts counted from zero.
 * @throws {UnknownJobError} when no unlocked job has that ID.
 */
export async function retryJob(db: AnyKysely, id: string): Promise<{ id: string; name: string }> {
  const result = await sql<{ id: string; task_identifier: string }>`
    select r.id::text as id, t.identifier as task_identifier
    from graphile_worker.reschedule_jobs(array[${id}::bigint], run_at => now(), attempts => 0) as r
    join graphile_worker._private_tasks as t on t.id = r.task_id`.execute(db);
  const row = result.rows[0];
  if (!row)
    throw new UnknownJobError(
      `No waiting job has the ID ${id} (it succeeded and was removed, or it is running); "bindery jobs:failed" lists the failed ones.`,
    );
  return { id: row.id, name: row.task_identifier };
}
