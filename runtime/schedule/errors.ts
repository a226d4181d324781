/**
 * Error class of scheduled tasks (code in `runtime/errors/codes.ts`, cause and fix in `docs/errors.md`).
 */
import { CodedError } from '../support/coded-error.js';

/** A scheduled task has an invalid cron pattern or options (`BINDERY_SCHEDULE_INVALID`). */
export class ScheduleError extends CodedError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('BINDERY_SCHEDULE_INVALID', message, options);
  }
}
