/**
 * The job queue on MySQL 8 and MariaDB 10.6+ (docs/jobs.md "Queue
 * backends"): a database queue in the app's own database, in the manner of
 * Laravel's database queue, with graphile-worker's semantics (the same
 * options, attempts, backoff, failed jobs, cron and recovery as the
 * PostgreSQL backend). Its tables (`jobs_queue`, `jobs_queue_locks`,
 * `jobs_cron_tasks`) belong to the `jobs` migration set
 * (`migrations/mysql/`), applied by `bindery migrate`.
 *
 * Jobs are inserted on the caller's Kysely instance or transaction
 * (queries.ts), claimed with `SELECT … FOR UPDATE SKIP LOCKED` (claim.ts),
 * run by a polling worker on the app's pool (worker.ts), queued by minute
 * by a cron that claims each minute once across workers (cron.ts), and
 * unlocked by the heartbeat when their worker died (locks.ts).
 */
import type { QueueBackend } from '../backend.js';
import { MYSQL_QUEUE_BACKEND } from './locks.js';
import { enqueueJob, failedJobs, jobCounts, pendingJobs, retryJob } from './queries.js';
import { startMysqlWorker } from './worker.js';

/** The MySQL queue as a {@link QueueBackend}; it holds no state (a worker's lives with the worker). */
export const mysqlBackend: QueueBackend = Object.freeze({
  name: MYSQL_QUEUE_BACKEND,
  /** Nothing to do at boot: the queue's tables are migrations of the `jobs` set, which `bindery migrate` applies with the others. */
  async migrate() {},
  enqueue: enqueueJob,
  startWorker: startMysqlWorker,
  failedJobs,
  retry: retryJob,
  counts: jobCounts,
  pendingJobs,
} satisfies QueueBackend);
