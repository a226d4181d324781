/**
 * Adding a scheduled task to the jobs runtime: a task the queue's workers
 * run, and a cron item that queues it (runtime/jobs/backend.ts `CronSchedule`).
 */
import type { JobsRuntime } from '../jobs/jobs-runtime.js';
import type { ScheduledTask } from './define-scheduled-task.js';

/** The cron part of a scheduled job's payload (`CronSchedule` in runtime/jobs/backend.ts). */
interface CronPayload {
  readonly _cron?: { readonly ts?: string; readonly backfilled?: boolean };
}

/**
 * Register `task` on `runtime`.
 * @param owner who declares it, for messages (`schedule()`, `the plugin "mailprovider"`).
 * @throws {JobDefinitionError} when its name is taken.
 */
export function registerScheduledTask(runtime: JobsRuntime, task: ScheduledTask, owner: string): void {
  runtime.register({
    name: task.name,
    kind: 'schedule',
    owner,
    policy: { maxAttempts: task.maxAttempts, queueName: task.queueName, priority: task.priority },
    ...(task.description ? { description: task.description } : {}),
    run: (payload, ctx) => {
      const cron = (payload as CronPayload | null)?._cron;
      const scheduledAt = cron?.ts ? new Date(cron.ts) : new Date();
      return task.run({ ...ctx, scheduledAt, backfilled: cron?.backfilled === true });
    },
  });
  runtime.addCronItem({
    task: task.name,
    pattern: task.cron,
    backfillMs: task.backfillMs,
    ...(task.maxAttempts !== undefined ? { maxAttempts: task.maxAttempts } : {}),
    ...(task.queueName !== undefined ? { queueName: task.queueName } : {}),
    ...(task.priority !== undefined ? { priority: task.priority } : {}),
  });
  scheduled.set(runtime, [...(scheduled.get(runtime) ?? []), task]);
}

const scheduled = new WeakMap<JobsRuntime, ScheduledTask[]>();

/** The scheduled tasks registered on `runtime`, in registration order. */
export function scheduledTasksOf(runtime: JobsRuntime): readonly ScheduledTask[] {
  return scheduled.get(runtime) ?? [];
}
