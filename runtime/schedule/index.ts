/**
 * Scheduled tasks on graphile-worker's cron (docs/jobs.md
 * "Scheduled tasks").
 */
export {
  defineScheduledTask,
  isScheduledTask,
  type ScheduledTask,
  type ScheduledTaskContext,
  type ScheduledTaskSpec,
} from './define-scheduled-task.js';
export { schedule, type ScheduleOptions } from './schedule-step.js';
export { registerScheduledTask, scheduledTasksOf } from './register-task.js';
export { nextRun } from './next-run.js';
export { ScheduleError } from './errors.js';
