/**
 * The MySQL queue's cron (docs/jobs.md "Scheduled tasks"): each worker
 * wakes at every minute, and for each cron item matching it queues a run —
 * once however many workers run, because a worker queues a minute only when
 * its conditional `UPDATE` of the task's row in `jobs_cron_tasks` moves
 * `last_execution` forward to that minute, in the transaction that inserts
 * the job (another worker's update of the same minute then matches no row).
 * A worker starting up first catches up the minutes missed within each
 * item's backfill period, after the task's last run (or since it was first
 * seen). The timing and the backfill rules are graphile-worker's cron's,
 * and patterns are read by its parser (../cron-pattern.ts), so a schedule
 * runs alike on either backend.
 */
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { AnyKysely } from '../../db/any-kysely.js';
import type { CronSchedule } from '../backend.js';
import { cronMatcher } from '../cron-pattern.js';
import { enqueueJob } from './queries.js';
import { queueDb, type QueueDb } from './tables.js';

const MINUTE = 60_000;
/** How long the cron waits before trying a minute again after a failure (ms; doubled each time, at most a minute). */
const RETRY_MS = 200;

interface Item {
  readonly schedule: CronSchedule;
  readonly matches: (at: Date) => boolean;
}

/** The start of the minute `ms` falls in, or of the next one when `up` and `ms` is not on a minute. */
function minuteOf(ms: number, up = false): number {
  const down = ms - (ms % MINUTE);
  return up && down !== ms ? down + MINUTE : down;
}

/** The cron of one worker; see the module doc. */
export class MysqlCron {
  readonly #db: QueueDb;
  readonly #items: readonly Item[];
  readonly #log: FastifyBaseLogger;
  readonly #now: () => number;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;
  #running: Promise<void> = Promise.resolve();

  /** @param now the clock (milliseconds since 1970; tests pass their own). */
  constructor(db: AnyKysely, items: readonly CronSchedule[], log: FastifyBaseLogger, now: () => number = Date.now) {
    this.#db = queueDb(db);
    this.#items = items.map((schedule) => ({ schedule, matches: cronMatcher(schedule.pattern) }));
    this.#log = log;
    this.#now = now;
  }

  /**
   * Record the items' tasks, catch up missed minutes, then queue every
   * minute from the next one on until {@link stop}.
   * @throws the driver's error when the first registration fails (the worker does not start).
   */
  async start(): Promise<void> {
    if (this.#items.length === 0) return;
    const start = this.#now();
    await this.#registerAndBackfill(new Date(start));
    this.#schedule(minuteOf(start, true), RETRY_MS);
  }

  /** Stop waking; resolves once a minute being queued now is queued. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
  }

  /**
   * Queue the runs of the items matching the minute `at` (which must be on a
   * minute), unless another worker queued them already.
   * @param backfilled whether this is a catch-up of a missed minute.
   * @param only queue only these tasks (the backfill's choice).
   * @returns the tasks this call queued a run of.
   */
  async queueMinute(at: Date, backfilled = false, only?: ReadonlySet<string>): Promise<string[]> {
    // In the tasks' order on every worker, so two workers queuing one minute lock the tasks' rows in the same order.
    const due = this.#items
      .filter((i) => i.matches(at) && (only === undefined || only.has(i.schedule.task)))
      .sort((a, b) => (a.schedule.task < b.schedule.task ? -1 : 1));
    if (due.length === 0) return [];
    return this.#db.transaction().execute(async (tx) => {
      const queued: string[] = [];
      for (const { schedule } of due) {
        await registerTask(tx, schedule.task, at);
        const claimed = await tx
          .updateTable('jobs_cron_tasks')
          .set({ last_execution: at })
          .where('task', '=', schedule.task)
          .where((eb) => eb.or([eb('last_execution', 'is', null), eb('last_execution', '<', at)]))
          .executeTakeFirst();
        if (claimed.numUpdatedRows === 0n) continue;
        await enqueueJob(tx, {
          name: schedule.task,
          payload: JSON.stringify({ _cron: { ts: at.toISOString(), backfilled } }),
          runAt: at,
          ...(schedule.maxAttempts !== undefined ? { maxAttempts: schedule.maxAttempts } : {}),
          ...(schedule.queueName !== undefined ? { queueName: schedule.queueName } : {}),
          ...(schedule.priority !== undefined ? { priority: schedule.priority } : {}),
        });
        queued.push(schedule.task);
      }
      return queued;
    });
  }

  /** graphile-worker's rules: a task seen for the first time is recorded and not caught up; a known one is caught up from its last run (or first sighting), within its backfill period. */
  async #registerAndBackfill(start: Date): Promise<void> {
    const known = new Map(
      (await this.#db.selectFrom('jobs_cron_tasks').selectAll().execute()).map((r) => [r.task, r.last_execution ?? r.known_since]),
    );
    for (const { schedule } of this.#items) if (!known.has(schedule.task)) await registerTask(this.#db, schedule.task, start);
    const largest = Math.max(0, ...this.#items.map((i) => i.schedule.backfillMs));
    if (largest === 0) return;
    for (let ts = minuteOf(start.getTime() - largest, true); ts < start.getTime(); ts += MINUTE) {
      const ago = start.getTime() - ts;
      const only = new Set(
        this.#items
          .filter(({ schedule }) => {
            const notBefore = known.get(schedule.task);
            return notBefore !== undefined && schedule.backfillMs >= ago && ts >= new Date(notBefore).getTime();
          })
          .map((i) => i.schedule.task),
      );
      if (only.size > 0) await this.queueMinute(new Date(ts), true, only);
    }
  }

  /** Wake at the minute `at` (a little after it), queue it, then go on with the next. */
  #schedule(at: number, retryMs: number): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(
      () => {
        this.#running = this.#tick(at, retryMs);
      },
      Math.max(at - this.#now() + 1, 1),
    );
    this.#timer.unref();
  }

  async #tick(at: number, retryMs: number): Promise<void> {
    if (this.#stopped) return;
    // Woken early (clock skew): wait again. Late (a busy event loop): queue the missed minutes one after the other.
    if (minuteOf(this.#now()) < at) return this.#schedule(at, retryMs);
    try {
      await this.queueMinute(new Date(at));
    } catch (error) {
      this.#log.warn({ err: error }, `the cron could not queue the runs of ${new Date(at).toISOString()}; trying again`);
      this.#timer = setTimeout(() => {
        this.#running = this.#tick(at, Math.min(retryMs * 2, MINUTE));
      }, retryMs);
      this.#timer.unref();
      return;
    }
    this.#schedule(at + MINUTE, RETRY_MS);
  }
}

/** Record `task` as known since `at`, unless it is known already. */
async function registerTask(db: QueueDb, task: string, at: Date): Promise<void> {
  await sql`INSERT INTO jobs_cron_tasks (task, known_since, last_execution) VALUES (${task}, ${at}, NULL) ON DUPLICATE KEY UPDATE task = task`.execute(
    db,
  );
}
