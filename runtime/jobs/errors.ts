/**
 * Error classes of jobs, scheduled tasks and events (codes in
 * `runtime/errors/codes.ts`, causes and fixes in `docs/errors.md`).
 */
import { CodedError } from '../support/coded-error.js';

/** A job, scheduled task or listener definition is invalid or its name is taken (`BINDERY_JOB_INVALID`). */
export class JobDefinitionError extends CodedError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('BINDERY_JOB_INVALID', message, options);
  }
}

/** A payload was refused by the job's payload check, or is not JSON (`BINDERY_JOB_PAYLOAD_INVALID`). */
export class JobPayloadError extends CodedError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('BINDERY_JOB_PAYLOAD_INVALID', message, options);
  }
}

/** A job, task or job ID that does not exist was named (`BINDERY_JOB_UNKNOWN`). */
export class UnknownJobError extends CodedError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('BINDERY_JOB_UNKNOWN', message, options);
  }
}

/** Jobs, scheduled tasks, events or the worker were used without their setup step (`BINDERY_JOBS_NOT_SET_UP`). */
export class JobsNotSetUpError extends CodedError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('BINDERY_JOBS_NOT_SET_UP', message, options);
  }
}
