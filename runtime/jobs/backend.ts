/**
 * The queue backend (docs/jobs.md "Queue backends"): everything bindery asks
 * of the job queue, over neutral arguments, so that the jobs runtime, the
 * scheduled tasks, the failed-jobs commands, the metrics and the dashboard
 * never name the queue's tables.
 *
 * A backend must give:
 *
 * - **transactional enqueue**: {@link QueueBackend.enqueue} runs on the Kysely
 *   instance or transaction it is handed, so a job queued with the caller's
 *   writes exists only if they commit;
 * - **at-least-once runs**: an attempt that throws is retried with backoff
 *   until its attempts run out, then kept as a failed job with its error;
 * - **recovery of a dead worker's jobs**: it locks a running job under IDs it
 *   names ({@link QueueLocks.lockIds}) and unlocks them on request
 *   ({@link QueueLocks.release}), so the heartbeat (worker-heartbeat.ts) can
 *   rerun the jobs of a worker that died;
 * - the same **idempotency key** on every run of one job ({@link JobAttempt.idempotencyKey});
 * - a **cron** that queues each scheduled minute once however many workers run;
 * - its own **schema**, migrated at boot ({@link QueueBackend.migrate}).
 *
 * The backend is chosen by the database engine (`select-backend.ts`):
 * PostgreSQL's is graphile-worker (`runtime/jobs/graphile/`), MySQL's and
 * MariaDB's the MySQL queue (`runtime/jobs/mysql/`).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { AnyKysely } from '../db/any-kysely.js';
import type { Database } from '../db/connect.js';

/** A job to store, as {@link QueueBackend.enqueue} takes it; options left out take the backend's defaults. */
export interface JobToQueue {
  /** The registered task's name. */
  readonly name: string;
  /** The stored payload (bindery's envelope, envelope.ts) as JSON text. */
  readonly payload: string;
  /** Jobs of one queue name run one at a time, in order. */
  readonly queueName?: string;
  /** Run no earlier than this time. */
  readonly runAt?: Date;
  /** Attempts in all, the first included. */
  readonly maxAttempts?: number;
  /** A unique key: queuing again with it replaces the waiting job instead of adding another. */
  readonly jobKey?: string;
  /** Lower runs first. */
  readonly priority?: number;
}

/** One attempt of a job, as a backend's worker hands it to the jobs runtime. */
export interface JobAttempt {
  /** The backend's job ID (a decimal string). */
  readonly id: string;
  /** The task's name. */
  readonly name: string;
  /** This attempt, from 1. */
  readonly attempt: number;
  readonly maxAttempts: number;
  /** The same on every run of this job (retries, reruns after a dead worker), different for every other job (docs/jobs.md "At least once"). */
  readonly idempotencyKey: string;
  /** The stored payload, parsed from JSON (a job a scheduled minute queued: `{ _cron: { ts, backfilled } }`). */
  readonly payload: unknown;
  /** Aborts when the worker shuts down and the attempt should stop early. */
  readonly signal: AbortSignal;
}

/**
 * A cron item: queue a run of `task` at each minute `pattern` matches (UTC),
 * with the payload `{ _cron: { ts: '<the minute, ISO 8601>', backfilled } }`.
 */
export interface CronSchedule {
  /** The registered task it queues (also the item's identity in the backend's record of past runs). */
  readonly task: string;
  /** Five fields, minute hour day-of-month month day-of-week (cron-pattern.ts). */
  readonly pattern: string;
  /** How far back a starting worker catches up minutes missed while none ran, in milliseconds (0: none). */
  readonly backfillMs: number;
  readonly maxAttempts?: number;
  readonly queueName?: string;
  readonly priority?: number;
}

/** A job a {@link QueueLocks.release} unlocked. */
export interface ReleasedJob {
  /** The backend's job ID (decimal string). */
  readonly id: string;
  readonly name: string;
  /** The attempt the dead worker was running (attempts count from 1). */
  readonly attempt: number;
  readonly maxAttempts: number;
  /** That was its last attempt: it is now a failed job (`bindery jobs:failed`), not run again. */
  readonly failed: boolean;
}

/**
 * What a queue backend does for the heartbeat (worker-heartbeat.ts): say
 * which lock IDs this process holds, and unlock the jobs held under a dead
 * worker's IDs.
 */
export interface QueueLocks {
  /** The backend's name, kept with each heartbeat (`graphile-worker`, `mysql-queue`): a worker only recovers rows of its own backend. */
  readonly backend: string;
  /** The IDs this process's worker locks jobs (and queues) under now; read at every beat. */
  lockIds(): readonly string[];
  /**
   * Unlock, inside `tx`, every job and queue locked under `lockIds`, so that
   * another worker runs them again; a job whose last attempt was running
   * becomes a failed job with `reason` as its error.
   * @returns the jobs unlocked.
   */
  release(tx: AnyKysely, lockIds: readonly string[], reason: string): Promise<readonly ReleasedJob[]>;
  /** Have this process's worker look for `count` jobs now instead of at its next poll (optional). */
  nudge?(count: number): void;
}

/** What {@link QueueBackend.startWorker} runs. */
export interface WorkerSpec {
  /** The names of every registered task (jobs, scheduled tasks, asynchronous listeners). */
  readonly tasks: readonly string[];
  readonly cron: readonly CronSchedule[];
  /** Jobs run at once. */
  readonly concurrency: number;
  /** Milliseconds between looks for jobs that became due. */
  readonly pollIntervalMs: number;
  /** The app's logger, for the backend's own lines. */
  readonly log: FastifyBaseLogger;
  /** The app's name, for the names of the worker's connections. */
  readonly appName: string;
  /** Run one attempt; a rejection fails it (retried with backoff until its attempts run out). */
  run(attempt: JobAttempt): Promise<void>;
  /**
   * The worker's locks are known: called before the worker takes its first
   * job (and may be called again with the same locks). The heartbeat starts here.
   */
  locksKnown(locks: QueueLocks): void;
}

/** A worker a backend started. */
export interface BackendWorker {
  /** Settles once the worker stopped and closed its connections; rejects if it crashed. */
  readonly done: Promise<void>;
  /** Stop taking jobs; resolves once the running ones finished (then {@link done} settles). Never rejects. */
  stop(): Promise<void>;
}

/** A job whose last attempt failed. */
export interface FailedJob {
  /** The backend's job ID (decimal string). */
  readonly id: string;
  /** The job's (task's) name. */
  readonly name: string;
  readonly attempts: number;
  readonly maxAttempts: number;
  /** When it runs next (a retry), or ran last (failed for good). */
  readonly runAt: Date;
  /** The error of the last attempt, as the backend stored it (message and stack). */
  readonly lastError: string;
  /** No attempts left: it stays until retried or deleted. */
  readonly permanent: boolean;
}

/** A job not finished yet. */
export interface PendingJob {
  readonly id: string;
  readonly name: string;
  readonly runAt: Date;
  readonly attempts: number;
  readonly maxAttempts: number;
  /** A worker holds it now. */
  readonly running: boolean;
  readonly lastError: string | null;
}

/** Jobs in the queue by state (the `bindery.jobs` gauge). */
export interface QueueCounts {
  /** Due, waiting for a worker. */
  readonly queued: number;
  /** Due later: `runAt`, or a retry's backoff. */
  readonly waiting: number;
  /** Held by a worker. */
  readonly running: number;
  /** No attempts left. */
  readonly failed: number;
}

/**
 * A job queue on one database engine; see the module doc. Every method that
 * reads or writes jobs runs on the Kysely instance or transaction it is given.
 */
export interface QueueBackend {
  /** The backend's name: kept with worker heartbeats, shown in messages (`graphile-worker`, `mysql-queue`). */
  readonly name: string;
  /**
   * Create or update the backend's own schema (under its own lock, outside
   * `bindery_migrations`). The `jobs()` step runs it at boot.
   */
  migrate(database: Database, context: { readonly log: FastifyBaseLogger; readonly appName: string }): Promise<void>;
  /**
   * Store a job, in `db`'s transaction when it is one.
   * @returns the job's ID (a decimal string).
   */
  enqueue(db: AnyKysely, job: JobToQueue): Promise<string>;
  /** Start a worker on `database` running `spec`'s tasks and cron items. @throws what the backend throws when it cannot start. */
  startWorker(database: Database, spec: WorkerSpec): Promise<BackendWorker>;
  /** Every job whose last attempt failed and that no worker holds, oldest first. */
  failedJobs(db: AnyKysely): Promise<FailedJob[]>;
  /**
   * Make a waiting job due now with its attempts counted from zero.
   * @returns its ID and name, or `undefined` when no job that no worker holds has that ID.
   */
  retry(db: AnyKysely, id: string): Promise<{ id: string; name: string } | undefined>;
  /** The jobs by state. */
  counts(db: AnyKysely): Promise<QueueCounts>;
  /**
   * Jobs waiting or running (with attempts left, or held), running first, then soonest.
   * @param limit at most this many.
   * @returns them, or `null` when the backend's schema does not exist (not migrated).
   */
  pendingJobs(db: AnyKysely, limit: number): Promise<PendingJob[] | null>;
}
