/**
 * The MySQL queue's side of worker heartbeats (../worker-heartbeat.ts;
 * docs/jobs.md "When a worker dies"): a worker process locks its jobs (and
 * their queues) under one random lock ID, reported at every beat; a dead
 * worker's jobs are unlocked in the transaction that removes its heartbeat,
 * and those that were on their last attempt become failed jobs.
 */
import { randomBytes } from 'node:crypto';
import type { AnyKysely } from '../../db/any-kysely.js';
import type { QueueLocks, ReleasedJob } from '../backend.js';
import { NOW } from './queries.js';
import { queueDb } from './tables.js';

/** The backend's name, kept with its workers' heartbeats. */
export const MYSQL_QUEUE_BACKEND = 'mysql-queue';

/** The lock ID and the unlocking of one MySQL queue worker. */
export class MysqlQueueLocks implements QueueLocks {
  readonly backend = MYSQL_QUEUE_BACKEND;
  /** What this worker's jobs are locked under (`locked_by`): `mysql-` and 18 hex digits. */
  readonly lockId = `mysql-${randomBytes(9).toString('hex')}`;
  readonly #onNudge: (count: number) => void;

  /** @param onNudge has the worker look for jobs now (after a recovery unlocked some). */
  constructor(onNudge: (count: number) => void) {
    this.#onNudge = onNudge;
  }

  lockIds(): readonly string[] {
    return [this.lockId];
  }

  nudge(count: number): void {
    this.#onNudge(count);
  }

  async release(tx: AnyKysely, lockIds: readonly string[], reason: string): Promise<readonly ReleasedJob[]> {
    if (lockIds.length === 0) return [];
    const ids = [...lockIds];
    const queue = queueDb(tx);
    const rows = await queue
      .selectFrom('jobs_queue')
      .select(['id', 'task', 'attempts', 'max_attempts'])
      .where('locked_by', 'in', ids)
      .orderBy('id')
      .forUpdate()
      .execute();
    // The claim counted the attempt that was cut short: a job on its last one will not run again, so it becomes a failed job with the reason as its error.
    const spent = rows.filter((r) => r.attempts >= r.max_attempts).map((r) => r.id);
    if (spent.length > 0) {
      await queue
        .updateTable('jobs_queue')
        .set({ last_error: `Error: ${reason}` })
        .where('id', 'in', spent)
        .execute();
    }
    if (rows.length > 0) {
      await queue
        .updateTable('jobs_queue')
        .set({ locked_by: null, locked_at: null, updated_at: NOW })
        .where('locked_by', 'in', ids)
        .execute();
    }
    await queue.updateTable('jobs_queue_locks').set({ locked_by: null, locked_at: null }).where('locked_by', 'in', ids).execute();
    return rows.map((r) => ({
      id: String(r.id),
      name: r.task,
      attempt: r.attempts,
      maxAttempts: r.max_attempts,
      failed: r.attempts >= r.max_attempts,
    }));
  }
}
