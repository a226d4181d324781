/**
 * The job queue on PostgreSQL: graphile-worker 0.17 (docs/jobs.md "Queue
 * backends"), in the app's own database under the `graphile_worker` schema.
 * Jobs are queued with `graphile_worker.add_job` inside the caller's
 * transaction, locked with `FOR UPDATE SKIP LOCKED`, started at once through
 * LISTEN/NOTIFY, retried with graphile-worker's backoff; a dead worker's jobs
 * are unlocked with `force_unlock_workers` (locks.ts).
 */
import { runMigrations } from 'graphile-worker';
import type { QueueBackend } from '../backend.js';
import { createJobsPool } from './pool.js';
import { addJob, failedJobs, jobCounts, pendingJobs, rescheduleJob } from './queries.js';
import { startGraphileWorker } from './worker.js';
import { workerLogger } from './worker-logger.js';

/** graphile-worker as a {@link QueueBackend}; it holds no state (a worker's pool lives with the worker). */
export const graphileBackend: QueueBackend = Object.freeze({
  name: 'graphile-worker',
  /** graphile-worker migrates its own schema (`graphile_worker`), under its own lock, on a one-connection pool. */
  async migrate(database, { log, appName }) {
    const pool = createJobsPool(database, 1, `bindery:${appName}:jobs-migrate`, log);
    try {
      await runMigrations({ pgPool: pool, logger: workerLogger(log) });
    } finally {
      await pool.end();
    }
  },
  enqueue: addJob,
  startWorker: startGraphileWorker,
  failedJobs,
  retry: rescheduleJob,
  counts: jobCounts,
  pendingJobs,
} satisfies QueueBackend);
