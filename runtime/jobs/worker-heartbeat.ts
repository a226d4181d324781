/**
 * Worker heartbeats: jobs of a worker that died run again within minutes
 * (docs/jobs.md "When a worker dies").
 *
 * Each running worker process keeps one row in `jobs_worker_heartbeats`
 * (migration set `jobs`): the IDs its queue backend locks jobs under and the
 * last time it was seen, renewed every `JOBS_HEARTBEAT_INTERVAL`. On each
 * beat a worker also looks for rows of its backend older than
 * `JOBS_WORKER_DEAD_AFTER`: their workers stopped without cleaning up
 * (SIGKILL, out of memory, a lost machine), so it deletes each such row and,
 * in the same transaction, has the backend unlock that worker's jobs
 * ({@link QueueLocks.release}), which then run again.
 *
 * The table and this loop know nothing of the queue backend: a backend
 * takes part by implementing `QueueLocks` (backend.ts; graphile/locks.ts is
 * graphile-worker's). Times are the database's clock (`current_timestamp`),
 * so clocks that differ between machines do not matter. The statements are
 * the same on every engine; only `lock_ids` is stored as the engine keeps
 * lists: a native array (PostgreSQL's `text[]`), else JSON text.
 *
 * A worker unlocks other workers' jobs only once its own heartbeat has
 * succeeded without a failure for `JOBS_WORKER_DEAD_AFTER`: after a database
 * outage every row is old, and the workers that are still alive get that long
 * to beat again before anyone takes them for dead.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { AnyKysely } from '../db/any-kysely.js';
import { isUndefinedTable } from '../db/database-errors.js';
import type { DatabaseEngine } from '../db/engine.js';
import type { QueueLocks, ReleasedJob } from './backend.js';

/** How often a worker beats and when it counts as dead (milliseconds). */
export interface HeartbeatTimings {
  /** `JOBS_HEARTBEAT_INTERVAL`. */
  readonly intervalMs: number;
  /** `JOBS_WORKER_DEAD_AFTER`. */
  readonly deadAfterMs: number;
}

interface HeartbeatRow {
  id: string;
  backend: string;
  /** An array where the engine has arrays, else JSON text (see {@link encodeLockIds}). */
  lock_ids: string[] | string;
  host: string;
  pid: number;
  seen_at: Date;
}

type HeartbeatDb = Kysely<{ jobs_worker_heartbeats: HeartbeatRow }>;

const TABLE = 'jobs_worker_heartbeats';

/** `lock_ids` as the engine stores a list: the array itself, or JSON text where there are no arrays. @internal Exported for its test. */
export function encodeLockIds(ids: string[], arrays: boolean): string[] | string {
  return arrays ? ids : JSON.stringify(ids);
}

/** The lock IDs of a row: an array as read, or parsed from JSON text. @internal Exported for its test. */
export function decodeLockIds(value: string[] | string): string[] {
  if (Array.isArray(value)) return value;
  const parsed: unknown = JSON.parse(value);
  return Array.isArray(parsed) ? parsed.map(String) : [];
}

/** The heartbeat of one worker process; see the module doc. */
export class WorkerHeartbeat {
  /** This worker's row ID: random, with the host and process in their own columns. */
  readonly id = `worker-${randomBytes(8).toString('hex')}`;
  readonly #db: HeartbeatDb;
  readonly #arrays: boolean;
  /** The backend's locks, from {@link start}. */
  #locks: QueueLocks | undefined;
  readonly #log: FastifyBaseLogger;
  readonly #timings: HeartbeatTimings;
  #timer: NodeJS.Timeout | undefined;
  #started = false;
  #stopped = false;
  #beaten = false;
  /** `performance.now()` of the first beat of the current run of successful beats; undefined after a failure. */
  #steadySince: number | undefined;
  #warnedMissingTable = false;
  /** A stop asked to keep the row (the runner crashed): a later stop does not remove it. */
  #keepRow = false;
  #tick: Promise<void> = Promise.resolve();
  #markReady: () => void = () => {};
  /** Resolves after the first beat (done or failed): tasks wait for it, so no task runs before its lock is on record. */
  readonly ready = new Promise<void>((resolve) => {
    this.#markReady = resolve;
  });

  /** @param options.engine the app database's engine: only whether it has arrays is read. */
  constructor(options: {
    db: AnyKysely;
    engine: Pick<DatabaseEngine, 'capabilities'>;
    log: FastifyBaseLogger;
    timings: HeartbeatTimings;
  }) {
    this.#db = options.db as HeartbeatDb;
    this.#arrays = options.engine.capabilities.arrays;
    this.#log = options.log;
    this.#timings = options.timings;
  }

  /**
   * Beat now, then every interval, until {@link stop}, with the IDs `locks`
   * reports (the queue backend calls it once its worker's locks are known).
   * Idempotent: later calls change nothing.
   */
  start(locks: QueueLocks): void {
    if (this.#started || this.#stopped) return;
    this.#started = true;
    this.#locks = locks;
    this.#run();
  }

  /**
   * Stop beating. `remove`: delete this worker's row (after a clean stop,
   * when it holds no job); otherwise the row stays, also through later
   * stops, and another worker recovers what it held once it is older than
   * `JOBS_WORKER_DEAD_AFTER`.
   */
  async stop(options: { remove: boolean }): Promise<void> {
    this.#stopped = true;
    if (!options.remove) this.#keepRow = true;
    clearTimeout(this.#timer);
    this.#markReady();
    await this.#tick;
    if (this.#keepRow || !this.#beaten) return;
    await this.#db
      .deleteFrom(TABLE)
      .where('id', '=', this.id)
      .execute()
      .catch((error: unknown) => this.#log.warn({ err: error }, 'could not remove the worker heartbeat; another worker removes it later'));
  }

  #run(): void {
    this.#tick = this.#beatAndRecover().finally(() => {
      this.#markReady();
      if (!this.#stopped) this.#timer = setTimeout(() => this.#run(), this.#timings.intervalMs).unref();
    });
  }

  async #beatAndRecover(): Promise<void> {
    const now = performance.now();
    try {
      await this.#beat();
    } catch (error) {
      this.#steadySince = undefined;
      this.#beatFailed(error);
      return;
    }
    this.#steadySince ??= now;
    if (now - this.#steadySince < this.#timings.deadAfterMs) return;
    try {
      await this.#recover();
    } catch (error) {
      this.#log.warn({ err: error }, 'could not look for workers that stopped sending heartbeats; trying again at the next beat');
    }
  }

  /** Renew this worker's row (insert it the first time, or when another worker took it for dead and removed it). */
  async #beat(): Promise<void> {
    const locks = this.#locks!;
    const lockIds = encodeLockIds([...locks.lockIds()], this.#arrays);
    const updated = await this.#db
      .updateTable(TABLE)
      .set({ lock_ids: lockIds, seen_at: sql<Date>`current_timestamp` })
      .where('id', '=', this.id)
      .executeTakeFirst();
    if (updated.numUpdatedRows > 0n) return;
    await this.#db
      .insertInto(TABLE)
      .values({
        id: this.id,
        backend: locks.backend,
        lock_ids: lockIds,
        host: hostname(),
        pid: process.pid,
        seen_at: sql<Date>`current_timestamp`,
      })
      .execute();
    if (this.#beaten) {
      this.#log.error(
        { code: 'BINDERY_JOB_WORKER_LOST', worker_id: this.id },
        `this worker's heartbeat was missing: another worker took it for dead (no heartbeat for JOBS_WORKER_DEAD_AFTER) and unlocked its running jobs, which may run twice; see docs/jobs.md "When a worker dies"`,
      );
    }
    this.#beaten = true;
  }

  #beatFailed(error: unknown): void {
    if (isUndefinedTable(error)) {
      if (this.#warnedMissingTable) return;
      this.#warnedMissingTable = true;
      this.#log.warn(
        `the table ${TABLE} does not exist: run "bindery migrate". Until then a worker that dies leaves its jobs locked until the queue's own lock expiry (graphile-worker's: 4 hours; docs/jobs.md "When a worker dies")`,
      );
      return;
    }
    this.#log.warn({ err: error }, 'the worker heartbeat failed; trying again at the next beat');
  }

  /** Delete the rows of dead workers of this backend and unlock their jobs, one worker per transaction. */
  async #recover(): Promise<void> {
    const locks = this.#locks!;
    const { rows } = await sql<{ now: Date }>`select current_timestamp as now`.execute(this.#db);
    const cutoff = new Date(new Date(rows[0]!.now).getTime() - this.#timings.deadAfterMs);
    let released = 0;
    for (;;) {
      const lost = await this.#db.transaction().execute(async (tx) => {
        const row = await tx
          .selectFrom(TABLE)
          .selectAll()
          .where('backend', '=', locks.backend)
          .where('seen_at', '<', cutoff)
          .where('id', '<>', this.id)
          .orderBy('seen_at')
          .limit(1)
          .forUpdate()
          .skipLocked()
          .executeTakeFirst();
        if (row === undefined) return undefined;
        await tx.deleteFrom(TABLE).where('id', '=', row.id).execute();
        const seen = new Date(row.seen_at).toISOString();
        const jobs = await locks.release(
          tx,
          decodeLockIds(row.lock_ids),
          `the worker running it (${row.host}, pid ${row.pid}) stopped: no heartbeat since ${seen}`,
        );
        return { row, seen, jobs };
      });
      if (lost === undefined) break;
      this.#logLost(lost.row, lost.seen, lost.jobs);
      released += lost.jobs.filter((j) => !j.failed).length;
    }
    if (released > 0) locks.nudge?.(released);
  }

  #logLost(row: HeartbeatRow, seen: string, jobs: readonly ReleasedJob[]): void {
    const list = jobs.map(
      (j) => `${j.id} (${j.name}, attempt ${j.attempt} of ${j.maxAttempts}) ${j.failed ? 'failed: no attempts left' : 'runs again'}`,
    );
    const n = jobs.length;
    this.#log.warn(
      {
        code: 'BINDERY_JOB_WORKER_LOST',
        lost_worker: { id: row.id, host: row.host, pid: row.pid, seen_at: seen },
        jobs: jobs.map((j) => ({ id: j.id, name: j.name, attempt: j.attempt, max_attempts: j.maxAttempts, failed: j.failed })),
      },
      `worker ${row.id} (${row.host}, pid ${row.pid}) sent no heartbeat since ${seen}; ${
        n === 0 ? 'it held no job' : `its ${n} running job${n === 1 ? ' was' : 's were'} unlocked: ${list.join(', ')}`
      }`,
    );
  }
}
