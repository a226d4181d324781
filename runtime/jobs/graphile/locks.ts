/**
 * The graphile-worker side of worker heartbeats (../worker-heartbeat.ts;
 * docs/jobs.md "When a worker dies").
 *
 * graphile-worker 0.17 locks a job (and its queue) under the ID of the
 * worker pool that took it (`locked_by = 'pool-…'`); a job whose pool dies
 * stays locked until graphile-worker's own expiry, 4 hours after
 * `locked_at`. This module learns the pool's ID (and its workers' IDs, in
 * case a later version locks by those) from the `pool:create` and
 * `worker:create` events of the runner, and unlocks a dead pool's jobs with
 * graphile-worker's `force_unlock_workers` (what `WorkerUtils.forceUnlockWorkers`
 * runs), in the transaction that removes the dead worker's heartbeat.
 */
import { EventEmitter } from 'node:events';
import { sql } from 'kysely';
import type { WorkerEvents, WorkerPool } from 'graphile-worker';
import type { AnyKysely } from '../../db/any-kysely.js';
import type { QueueLocks, ReleasedJob } from '../backend.js';

/** The lock IDs and unlocking of graphile-worker; pass {@link GraphileLocks.events} as `run({ events })`. */
export class GraphileLocks implements QueueLocks {
  readonly backend = 'graphile-worker';
  /** The runner's event emitter (graphile-worker's `events` option). */
  readonly events: WorkerEvents = new EventEmitter() as WorkerEvents;
  readonly #ids = new Set<string>();
  readonly #pools: WorkerPool[] = [];

  /** @param onPoolCreated called once the pool exists (its ID is known), before it takes a job: the heartbeat starts then. */
  constructor(onPoolCreated: () => void) {
    this.events.on('pool:create', ({ workerPool }) => {
      this.#ids.add(workerPool.id);
      this.#pools.push(workerPool);
      onPoolCreated();
    });
    this.events.on('worker:create', ({ worker }) => {
      this.#ids.add(worker.workerId);
    });
  }

  lockIds(): readonly string[] {
    return [...this.#ids];
  }

  nudge(count: number): void {
    for (const pool of this.#pools) pool.nudge(count);
  }

  async release(tx: AnyKysely, lockIds: readonly string[], reason: string): Promise<readonly ReleasedJob[]> {
    if (lockIds.length === 0) return [];
    const ids = [...lockIds];
    const { rows } = await sql<{ id: string; task_identifier: string; attempts: number; max_attempts: number }>`
      select id::text as id, task_identifier, attempts, max_attempts
      from graphile_worker.jobs
      where locked_by = any(${ids}::text[])
      order by id`.execute(tx);
    await sql`select graphile_worker.force_unlock_workers(${ids}::text[])`.execute(tx);
    // graphile-worker counts an attempt when it locks the job: one whose last attempt was cut short will not run again, so it is marked failed, with the reason as its error, for `bindery jobs:failed`.
    const spent = rows.filter((r) => r.attempts >= r.max_attempts).map((r) => r.id);
    if (spent.length > 0) {
      await sql`select id from graphile_worker.permanently_fail_jobs(${spent}::bigint[], ${`Error: ${reason}`}::text)`.execute(tx);
    }
    return rows.map((r) => ({
      id: r.id,
      name: r.task_identifier,
      attempt: r.attempts,
      maxAttempts: r.max_attempts,
      failed: r.attempts >= r.max_attempts,
    }));
  }
}
