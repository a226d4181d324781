/**
 * Jobs (docs/jobs.md), on the queue backend of the app's database engine
 * (graphile-worker on PostgreSQL, docs/jobs.md "Queue backends"): declaring jobs,
 * queuing them inside transactions with the actor that queued them, running
 * them with `bindery worker` or `bindery serve --worker`, retries with
 * backoff, failed jobs with their error.
 */
import type { RunningWorker, WorkerOptions } from './jobs-runtime.js';
import { requireJobsRuntime } from './jobs-runtime.js';

export {
  defineJob,
  type JobContext,
  type JobDefinition,
  type JobSpec,
  type PayloadOf,
  type RetryPolicy,
} from './define-job.js';
export { Queue, type AddJobOptions, type JobName, type QueuedJob } from './queue.js';
export { jobs, type JobsOptions } from './jobs-step.js';
export type {
  RunningWorker,
  WorkerOptions,
} from './jobs-runtime.js';
export { listFailedJobs, retryJob, type FailedJob } from './failed-jobs.js';

/**
 * Start the worker of a booted app in this process (what `bindery worker`
 * and `bindery serve --worker` do): every job, scheduled task and
 * asynchronous listener of the app and its plugins runs here.
 *
 * @param services the booted app's services (`bootApp(...).services`, `startApp(...).services`).
 * @param options concurrency, poll interval, heartbeat interval and dead-worker threshold in ms (default: `JOBS_CONCURRENCY`,
 *   `JOBS_POLL_INTERVAL`, `JOBS_HEARTBEAT_INTERVAL`, `JOBS_WORKER_DEAD_AFTER`; docs/jobs.md "When a worker dies").
 * @returns the running worker; `stop()` waits for running jobs. The app's close also stops it.
 * @throws {ServiceNotSetUpError} when the app has no `jobs()` step; {@link JobsNotSetUpError} when a worker already runs in this process.
 * @example
 *   const booted = await bootApp(app, env, out);
 *   const worker = await startWorker(booted.services);
 *   // … on SIGTERM:
 *   await booted.close(); // stops the worker first
 */
export function startWorker(services: object, options: WorkerOptions = {}): Promise<RunningWorker> {
  return requireJobsRuntime(services, 'The worker').startWorker(options);
}
// `JobPayloads` comes through `export type *`, not a named re-export: an
// app's `declare module 'bindery/jobs' { interface JobPayloads { … } }` then
// merges into the interface itself, also from an installed package's .d.ts
// files (docs/package.md).
export type * from './define-job.js';
