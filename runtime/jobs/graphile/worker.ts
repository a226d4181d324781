/**
 * A graphile-worker worker (docs/jobs.md "Running jobs"): its `run` with
 * every registered task and cron item, on a pool of its own, the locks its
 * heartbeat reports (locks.ts), and each job handed to the jobs runtime as a
 * neutral attempt with its idempotency key.
 */
import { parseCronItems, run, type JobHelpers, type Runner, type TaskList } from 'graphile-worker';
import type { Database } from '../../db/connect.js';
import type { BackendWorker, WorkerSpec } from '../backend.js';
import { graphileCronItem } from './cron.js';
import { GraphileLocks } from './locks.js';
import { createJobsPool } from './pool.js';
import { workerLogger } from './worker-logger.js';

/**
 * The idempotency key of a graphile-worker job: the backend, its job ID and
 * its revision (graphile-worker counts each replacement of a waiting job by
 * `jobKey`, so a replaced payload gets a new key). The same on every run of
 * the job, retries and reruns after a crash included.
 * @example graphileIdempotencyKey({ id: '17', revision: 0 }) // 'graphile-worker:17:0'
 */
export function graphileIdempotencyKey(job: { readonly id: string | number; readonly revision?: number }): string {
  return `graphile-worker:${String(job.id)}:${job.revision ?? 0}`;
}

/**
 * Start graphile-worker's runner for `spec` on a pool of `concurrency + 2`
 * connections to `database` (one for LISTEN, one per running job).
 * @throws what graphile-worker's `run` throws (its pool is ended first).
 */
export async function startGraphileWorker(database: Database, spec: WorkerSpec): Promise<BackendWorker> {
  // The heartbeat starts when graphile-worker has made its pool (its lock ID known), before the pool takes a job.
  const locks: GraphileLocks = new GraphileLocks(() => spec.locksKnown(locks));
  const taskList: TaskList = {};
  for (const name of spec.tasks) {
    taskList[name] = (stored: unknown, helpers: JobHelpers) => {
      const job = helpers.job;
      return spec.run({
        id: String(job.id),
        name,
        attempt: job.attempts,
        maxAttempts: job.max_attempts,
        idempotencyKey: graphileIdempotencyKey(job),
        payload: stored,
        signal: helpers.abortSignal,
      });
    };
  }
  const pool = createJobsPool(database, spec.concurrency + 2, `bindery:${spec.appName}:worker`, spec.log);
  let runner: Runner;
  try {
    runner = await run({
      pgPool: pool,
      concurrency: spec.concurrency,
      pollInterval: spec.pollIntervalMs,
      noHandleSignals: true,
      taskList,
      parsedCronItems: parseCronItems(spec.cron.map(graphileCronItem)),
      logger: workerLogger(spec.log),
      events: locks.events,
    });
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
  spec.locksKnown(locks);
  let poolEnded: Promise<void> | undefined;
  // Ends the worker's pool once, whoever asks first (the runner's end or a stop).
  const endPool = () => (poolEnded ??= pool.end().catch(() => {}));
  const done = runner.promise.finally(endPool);
  // Observed here as well: a crash is reported through `done` to whoever awaits it, never as an unhandled rejection.
  done.catch(() => {});
  return {
    done,
    async stop() {
      try {
        await runner.stop();
      } catch (error) {
        // Stopping twice, or after a crash, rejects; the runner is stopped either way.
        spec.log.debug({ err: error }, 'stopping the worker');
      }
      await done.catch(() => {});
    },
  };
}
