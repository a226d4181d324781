/**
 * Declaring scheduled tasks (docs/jobs.md "Scheduled tasks").
 *
 * A scheduled task is a job without a payload that the queue backend's cron
 * queues at the minutes its five-field pattern matches (UTC). It runs on the
 * app's workers like any job, with retries, inside an execution context with
 * via `{ kind: 'schedule', name }` and the `system` actor.
 */
import { checkCronPattern } from '../jobs/cron-pattern.js';
import { checkRetryPolicy, type JobContext, type RetryPolicy } from '../jobs/define-job.js';
import { JobDefinitionError } from '../jobs/errors.js';
import { isNamespacedName } from '../jobs/names.js';
import { parseDuration } from '../support/duration.js';
import { ScheduleError } from './errors.js';

/** What a scheduled task receives. */
export interface ScheduledTaskContext extends JobContext {
  /** The minute the run was scheduled for (UTC), not when it started. */
  readonly scheduledAt: Date;
  /** True for a run queued at worker start to catch up a missed minute (see `backfill`). */
  readonly backfilled: boolean;
}

/** What {@link defineScheduledTask} takes. */
export interface ScheduledTaskSpec extends RetryPolicy {
  /** `<namespace>:<name>`, e.g. `documents:prune`, `audit:prune`. */
  readonly name: string;
  /** Cron pattern, five fields in UTC: minute hour day-of-month month day-of-week, e.g. `0 3 * * *` (03:00 daily), `*\/15 * * * *`. */
  readonly cron: string;
  /** What it does, for `bindery schedule:list`. */
  readonly description?: string;
  /**
   * How far back a worker starting up catches up runs it missed while no
   * worker ran: a duration (`1h`, `1d` is `24h`) or milliseconds. Default 0:
   * missed runs are skipped. Runs are never missed while a worker runs.
   */
  readonly backfill?: string | number;
  /** The work. Throwing fails this run; it is retried with backoff until `maxAttempts` (default 25). */
  readonly run: (ctx: ScheduledTaskContext) => void | Promise<void>;
}

/** A declared scheduled task. Create it with {@link defineScheduledTask}. */
export interface ScheduledTask extends ScheduledTaskSpec {
  readonly kind: 'scheduled-task';
  /** `backfill` in milliseconds. */
  readonly backfillMs: number;
}

/**
 * Declare a scheduled task.
 *
 * @returns the task, to list in `schedule({ tasks })` or a plugin manifest.
 * @throws {JobDefinitionError} for a bad name or retry policy.
 * @throws {ScheduleError} for a bad cron pattern or backfill.
 * @example
 *   export const pruneDocuments = defineScheduledTask({
 *     name: 'documents:prune',
 *     cron: '30 3 * * *',
 *     description: 'Delete documents soft-deleted more than 30 days ago.',
 *     backfill: '24h',
 *     async run({ services }) { await pruneDeletedDocuments(services.db); },
 *   });
 */
export function defineScheduledTask(spec: ScheduledTaskSpec): ScheduledTask {
  if (!isNamespacedName(spec.name)) {
    throw new JobDefinitionError(
      `Scheduled task name ${JSON.stringify(spec.name)} is invalid: use "<namespace>:<name>" in lower case, e.g. "documents:prune".`,
    );
  }
  if (typeof spec.run !== 'function') throw new JobDefinitionError(`Scheduled task "${spec.name}" has no run function.`);
  checkRetryPolicy(`Scheduled task "${spec.name}"`, spec);
  let backfillMs = 0;
  if (spec.backfill !== undefined) {
    const ms = typeof spec.backfill === 'number' ? spec.backfill : parseDuration(spec.backfill);
    if (ms === undefined || !Number.isFinite(ms) || ms < 0) {
      throw new ScheduleError(
        `Scheduled task "${spec.name}": backfill ${JSON.stringify(spec.backfill)} is not a duration; use e.g. "1h" or "24h".`,
      );
    }
    backfillMs = Math.round(ms);
  }
  try {
    checkCronPattern(spec.cron);
  } catch (error) {
    throw new ScheduleError(
      `Scheduled task "${spec.name}": the cron pattern ${JSON.stringify(spec.cron)} is invalid (${(error as Error).message}); use five fields in UTC, minute hour day month weekday, e.g. "0 3 * * *".`,
      { cause: error },
    );
  }
  return Object.freeze({ ...spec, kind: 'scheduled-task' as const, backfillMs });
}

/** True when `value` was made by {@link defineScheduledTask}. */
export function isScheduledTask(value: unknown): value is ScheduledTask {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'scheduled-task';
}
