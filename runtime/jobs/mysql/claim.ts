/**
 * Taking a job and settling it, on MySQL and MariaDB (docs/jobs.md "Queue
 * backends"): a worker claims the first due job with `SELECT … FOR UPDATE
 * SKIP LOCKED` in a short transaction (rows another claim holds are skipped,
 * never waited for), locks it under its lock ID and counts the attempt;
 * success deletes the row, failure unlocks it with its error and the backoff
 * of graphile-worker (e^attempt seconds, capped at e^10). Jobs of one queue
 * name run one at a time: the claim also locks the queue's row in
 * `jobs_queue_locks`, the job's end unlocks it. The claim runs in READ
 * COMMITTED: InnoDB then releases at once the rows its scan looked at and
 * did not take (another worker's tasks), which REPEATABLE READ would keep
 * locked to the transaction's end, so workers of different tasks do not
 * skip each other's jobs.
 */
import { sql } from 'kysely';
import type { AnyKysely } from '../../db/any-kysely.js';
import { NOW } from './queries.js';
import { queueDb, type QueueDb } from './tables.js';

/** A job a worker holds. */
export interface ClaimedJob {
  readonly id: number;
  readonly task: string;
  /** As the driver read it: parsed JSON, or its text. */
  readonly payload: unknown;
  readonly queueName: string | null;
  /** This attempt, from 1 (counted by the claim). */
  readonly attempt: number;
  readonly maxAttempts: number;
  readonly revision: number;
}

/** How many busy queues one claim steps over before it gives up until the next look. */
const MAX_BUSY_QUEUES = 20;

/**
 * Claim the first due job of `tasks` for the worker `lockId`: lowest
 * priority first, then the soonest due, then the oldest.
 * @returns the job, or `undefined` when none is due (or every due one is held or in a busy queue).
 * @throws the driver's error (the database unreachable, the table missing).
 */
export async function claimJob(db: AnyKysely, lockId: string, tasks: readonly string[]): Promise<ClaimedJob | undefined> {
  if (tasks.length === 0) return undefined;
  return queueDb(db)
    .transaction()
    .setIsolationLevel('read committed')
    .execute(async (tx) => {
      // Queues running a job now (a plain read, no lock): their waiting jobs are not candidates.
      const busy = (await tx.selectFrom('jobs_queue_locks').select('queue_name').where('locked_by', 'is not', null).execute()).map(
        (r) => r.queue_name,
      );
      for (let step = 0; step <= MAX_BUSY_QUEUES; step++) {
        let candidates = tx
          .selectFrom('jobs_queue')
          .select(['id', 'task', 'payload', 'queue_name', 'attempts', 'max_attempts', 'revision'])
          .where('locked_by', 'is', null)
          .whereRef('attempts', '<', 'max_attempts')
          .where('run_at', '<=', NOW)
          .where('task', 'in', [...tasks]);
        if (busy.length > 0) candidates = candidates.where((eb) => eb.or([eb('queue_name', 'is', null), eb('queue_name', 'not in', busy)]));
        const job = await candidates
          .orderBy('priority')
          .orderBy('run_at')
          .orderBy('id')
          .limit(1)
          .forUpdate()
          .skipLocked()
          .executeTakeFirst();
        if (job === undefined) return undefined;
        if (job.queue_name !== null && !(await lockQueue(tx, job.queue_name, lockId))) {
          busy.push(job.queue_name);
          continue;
        }
        await tx
          .updateTable('jobs_queue')
          .set({ locked_by: lockId, locked_at: NOW, attempts: sql`attempts + 1`, updated_at: NOW })
          .where('id', '=', job.id)
          .execute();
        return {
          id: job.id,
          task: job.task,
          payload: job.payload,
          queueName: job.queue_name,
          attempt: job.attempts + 1,
          maxAttempts: job.max_attempts,
          revision: job.revision,
        };
      }
      return undefined;
    });
}

/**
 * Lock the queue `name` for `lockId`, inside the claim's transaction.
 * @returns false when another worker holds it, or another claim is locking it now.
 */
async function lockQueue(tx: QueueDb, name: string, lockId: string): Promise<boolean> {
  const row = await tx
    .selectFrom('jobs_queue_locks')
    .select('locked_by')
    .where('queue_name', '=', name)
    .forUpdate()
    .skipLocked()
    .executeTakeFirst();
  if (row !== undefined) {
    if (row.locked_by !== null) return false;
    await tx.updateTable('jobs_queue_locks').set({ locked_by: lockId, locked_at: NOW }).where('queue_name', '=', name).execute();
    return true;
  }
  // No row: the queue's first job (or one a claim holds now, which this insert waits for and then finds taken).
  const inserted =
    await sql`INSERT IGNORE INTO jobs_queue_locks (queue_name, locked_by, locked_at) VALUES (${name}, ${lockId}, CURRENT_TIMESTAMP(6))`.execute(
      tx,
    );
  return Number(inserted.numAffectedRows ?? 0n) === 1;
}

/** Unlock the job's queue, if it has one and `lockId` holds it. */
async function unlockQueue(tx: QueueDb, job: ClaimedJob, lockId: string): Promise<void> {
  if (job.queueName === null) return;
  await tx
    .updateTable('jobs_queue_locks')
    .set({ locked_by: null, locked_at: null })
    .where('queue_name', '=', job.queueName)
    .where('locked_by', '=', lockId)
    .execute();
}

/**
 * The attempt succeeded: delete the job (only if `lockId` still holds it — a
 * worker taken for dead lost it to another) and unlock its queue.
 */
export async function completeJob(db: AnyKysely, job: ClaimedJob, lockId: string): Promise<void> {
  await queueDb(db)
    .transaction()
    .execute(async (tx) => {
      await tx.deleteFrom('jobs_queue').where('id', '=', job.id).where('locked_by', '=', lockId).execute();
      await unlockQueue(tx, job, lockId);
    });
}

/**
 * The attempt failed: unlock the job with `error` as its last error, due
 * again after e^attempt seconds (capped at e^10 ≈ 6.1 h); with no attempts
 * left it stays as a failed job. Its queue is unlocked.
 */
export async function failJob(db: AnyKysely, job: ClaimedJob, lockId: string, error: string): Promise<void> {
  await queueDb(db)
    .transaction()
    .execute(async (tx) => {
      await tx
        .updateTable('jobs_queue')
        .set({
          locked_by: null,
          locked_at: null,
          last_error: error,
          run_at: sql`DATE_ADD(GREATEST(CURRENT_TIMESTAMP(6), run_at), INTERVAL ROUND(EXP(LEAST(attempts, 10)) * 1000000) MICROSECOND)`,
          updated_at: NOW,
        })
        .where('id', '=', job.id)
        .where('locked_by', '=', lockId)
        .execute();
      await unlockQueue(tx, job, lockId);
    });
}
