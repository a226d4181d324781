/**
 * The `schedule()` setup step (docs/jobs.md "Scheduled tasks").
 *
 * Registers the app's scheduled tasks on the job queue's cron. It needs
 * `jobs()` before it; the tasks run on the app's workers (`bindery worker`,
 * `serve --worker`), which queue each run once per matching minute however
 * many workers run.
 */
import type { SetupStep } from '../app/setup-step.js';
import { requireJobsRuntime } from '../jobs/jobs-runtime.js';
import { JobDefinitionError } from '../jobs/errors.js';
import { ScheduleListCommand } from './commands/schedule-list.js';
import { ScheduleRunCommand } from './commands/schedule-run.js';
import type { ScheduledTask } from './define-scheduled-task.js';
import { registerScheduledTask } from './register-task.js';

/** Options of {@link schedule}. */
export interface ScheduleOptions {
  /** The app's scheduled tasks (plugins bring theirs in their manifests). */
  readonly tasks?: readonly ScheduledTask[];
}

/**
 * The setup step for scheduled tasks; list it after `jobs()`, before the plugins.
 * @throws {JobDefinitionError} when a task is listed twice.
 * @example setup: [jobs(), schedule({ tasks: [pruneDocuments, auditPrune] }), events(), ...plugins(pluginList)]
 */
export function schedule(options: ScheduleOptions = {}): SetupStep {
  const tasks = options.tasks ?? [];
  const names = new Set<string>();
  for (const task of tasks) {
    if (names.has(task.name)) throw new JobDefinitionError(`schedule() lists the task "${task.name}" twice; keep one.`);
    names.add(task.name);
  }
  return {
    name: 'schedule',
    call: 'schedule()',
    requires: [{ name: 'jobs', call: 'jobs()' }],
    commands: [ScheduleListCommand, ScheduleRunCommand],
    setup(ctx) {
      const runtime = requireJobsRuntime(ctx.services, 'schedule()');
      for (const task of tasks) registerScheduledTask(runtime, task, 'schedule()');
    },
  };
}
