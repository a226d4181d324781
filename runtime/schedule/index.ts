/**
 * Scheduled tasks on the job queue's cron (docs/jobs.md
 * "Scheduled tasks").
 */
export {
  defineScheduledTask,
  type ScheduledTask,
  type ScheduledTaskContext,
  type ScheduledTaskSpec,
} from './define-scheduled-task.js';
export { schedule, type ScheduleOptions } from './schedule-step.js';
export { nextRun } from './next-run.js';
