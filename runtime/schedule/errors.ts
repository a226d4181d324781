/**
 * Error class of scheduled tasks (code in `runtime/errors/codes.ts`, cause and fix in `docs/errors.md`).
 */
import { codedErrorClass } from '../errors/coded-error.js';

/** A scheduled task has an invalid cron pattern or options (`BINDERY_SCHEDULE_INVALID`). */
export const ScheduleError = codedErrorClass('ScheduleError', 'BINDERY_SCHEDULE_INVALID');
/** An instance of {@link ScheduleError}. */
export type ScheduleError = InstanceType<typeof ScheduleError>;
