/**
 * A worker of the MySQL queue (docs/jobs.md "Queue backends"): it looks for
 * a due job, claims it (claim.ts) and runs it, up to `concurrency` at once,
 * on the app's own pool (each claim and each settling is a short
 * transaction). After a job ends it looks again at once; when it finds
 * none it waits `pollIntervalMs` (no LISTEN/NOTIFY on MySQL: a new job
 * starts within that interval). Its cron (cron.ts) queues scheduled
 * minutes; its locks (locks.ts) let the heartbeat recover what a dead worker
 * held. The attempt's idempotency key is `mysql-queue:<job id>:<revision>`.
 */
import type { Database } from '../../db/connect.js';
import type { AnyKysely } from '../../db/any-kysely.js';
import { isUndefinedTable } from '../../db/database-errors.js';
import type { BackendWorker, WorkerSpec } from '../backend.js';
import { claimJob, completeJob, failJob, type ClaimedJob } from './claim.js';
import { MysqlCron } from './cron.js';
import { MysqlQueueLocks } from './locks.js';

/** How long a stopping worker lets running attempts go on before it aborts their signal (ms; graphile-worker's default). */
const ABORT_AFTER_MS = 5000;
/** Waits between tries to record an attempt's end (ms); after the last the worker stops, and the heartbeat recovery takes over. */
const SETTLE_RETRIES_MS = [200, 500, 1000, 2000, 5000, 10_000, 10_000];

/**
 * The idempotency key of a MySQL queue job: the backend, its ID and its
 * revision (each replacement of a waiting job by its `jobKey` counts one).
 * @example mysqlIdempotencyKey({ id: 17, revision: 0 }) // 'mysql-queue:17:0'
 */
export function mysqlIdempotencyKey(job: { readonly id: number | string; readonly revision: number }): string {
  return `mysql-queue:${String(job.id)}:${job.revision}`;
}

/** The error of a failed attempt as stored: its stack (which starts with its name and message), else its text. */
function errorText(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}

/**
 * Start a worker on `database` for `spec` (its cron first: registration and catch-up).
 * @throws the driver's error when the cron cannot start (the database unreachable, the tables missing).
 */
export async function startMysqlWorker(database: Database, spec: WorkerSpec): Promise<BackendWorker> {
  const worker = new MysqlWorker(database.db, spec);
  return worker.start();
}

class MysqlWorker {
  readonly #db: AnyKysely;
  readonly #spec: WorkerSpec;
  readonly #locks: MysqlQueueLocks;
  readonly #cron: MysqlCron;
  readonly #abort = new AbortController();
  readonly #running = new Set<Promise<void>>();
  #stopping = false;
  #woken = false;
  #wakeUp: (() => void) | undefined;
  /** Why the worker stopped by itself (an attempt's end it could not record). */
  #crash: unknown;
  #warnedMissingTable = false;
  #claimFailing = false;

  constructor(db: AnyKysely, spec: WorkerSpec) {
    this.#db = db;
    this.#spec = spec;
    this.#locks = new MysqlQueueLocks(() => this.#wake());
    this.#cron = new MysqlCron(db, spec.cron, spec.log);
  }

  async start(): Promise<BackendWorker> {
    // The heartbeat starts now; tasks wait for its first beat before their code runs.
    this.#spec.locksKnown(this.#locks);
    await this.#cron.start();
    this.#spec.log.info(
      { worker: { lock_id: this.#locks.lockId } },
      `worker ${this.#locks.lockId} looking for jobs of ${this.#spec.tasks.length} tasks, every ${this.#spec.pollIntervalMs} ms when idle`,
    );
    const loop = this.#poll();
    const done = (async () => {
      await loop;
      await Promise.allSettled([...this.#running]);
      await this.#cron.stop();
      if (this.#crash !== undefined) throw this.#crash;
    })();
    // Observed here as well: a crash is reported through `done` to whoever awaits it, never as an unhandled rejection.
    done.catch(() => {});
    return {
      done,
      stop: async () => {
        this.#stopping = true;
        this.#wake();
        const abortTimer = setTimeout(() => this.#abort.abort(new Error('the worker is stopping')), ABORT_AFTER_MS);
        abortTimer.unref();
        await done.catch(() => {});
        clearTimeout(abortTimer);
      },
    };
  }

  /** Have the loop look for jobs now (a job ended, a recovery unlocked some, the worker stops). */
  #wake(): void {
    this.#woken = true;
    this.#wakeUp?.();
  }

  #sleep(ms: number): Promise<void> {
    if (this.#woken) {
      this.#woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = Number.isFinite(ms) ? setTimeout(() => done(), ms) : undefined;
      const done = () => {
        clearTimeout(timer);
        this.#wakeUp = undefined;
        this.#woken = false;
        resolve();
      };
      this.#wakeUp = done;
    });
  }

  async #poll(): Promise<void> {
    const { concurrency, pollIntervalMs, tasks } = this.#spec;
    while (!this.#stopping) {
      this.#woken = false;
      while (!this.#stopping && this.#running.size < concurrency) {
        let job: ClaimedJob | undefined;
        try {
          job = await claimJob(this.#db, this.#locks.lockId, tasks);
        } catch (error) {
          this.#claimFailed(error);
          break;
        }
        this.#claimFailing = false;
        if (job === undefined) break;
        this.#run(job);
      }
      if (this.#stopping) break;
      // Slots full: wait for a job to end (it wakes the loop); else for the next look.
      await this.#sleep(this.#running.size >= concurrency ? Number.POSITIVE_INFINITY : pollIntervalMs);
    }
  }

  #claimFailed(error: unknown): void {
    if (isUndefinedTable(error)) {
      if (!this.#warnedMissingTable)
        this.#spec.log.warn(
          'the table jobs_queue does not exist: run "bindery migrate" (the migration set "jobs"). Until then no job runs (docs/jobs.md "Queue backends")',
        );
      this.#warnedMissingTable = true;
      return;
    }
    if (!this.#claimFailing) this.#spec.log.warn({ err: error }, 'could not look for jobs; trying again at the next poll');
    this.#claimFailing = true;
  }

  #run(job: ClaimedJob): void {
    const running: Promise<void> = this.#attempt(job).finally(() => {
      this.#running.delete(running);
      this.#wake();
    });
    this.#running.add(running);
  }

  async #attempt(job: ClaimedJob): Promise<void> {
    const started = performance.now();
    let failure: { error: unknown } | undefined;
    try {
      await this.#spec.run({
        id: String(job.id),
        name: job.task,
        attempt: job.attempt,
        maxAttempts: job.maxAttempts,
        idempotencyKey: mysqlIdempotencyKey(job),
        payload: typeof job.payload === 'string' ? JSON.parse(job.payload) : job.payload,
        signal: this.#abort.signal,
      });
    } catch (error) {
      failure = { error };
    }
    const lockId = this.#locks.lockId;
    await this.#settle(job, () =>
      failure === undefined ? completeJob(this.#db, job, lockId) : failJob(this.#db, job, lockId, errorText(failure.error)),
    );
    if (failure === undefined)
      this.#spec.log.info(
        { job: { id: job.id, task_identifier: job.task, attempts: job.attempt, max_attempts: job.maxAttempts } },
        `completed job ${job.id} (${job.task}, ${Math.round(performance.now() - started)} ms)`,
      );
  }

  /** Record an attempt's end, trying again while the database does not answer; after the last try the worker stops with the error. */
  async #settle(job: ClaimedJob, record: () => Promise<void>): Promise<void> {
    for (let i = 0; ; i++) {
      try {
        await record();
        return;
      } catch (error) {
        const wait = SETTLE_RETRIES_MS[i];
        if (wait === undefined) {
          this.#spec.log.error(
            { err: error, job: { id: job.id, task_identifier: job.task } },
            `could not record the end of job ${job.id} (${job.task}): this worker stops; its heartbeat stops with it, and another worker runs the job again (docs/jobs.md "When a worker dies")`,
          );
          this.#crash ??= error;
          this.#stopping = true;
          this.#wake();
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  }
}
