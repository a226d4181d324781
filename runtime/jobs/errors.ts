/**
 * Error classes of jobs, scheduled tasks and events (codes in
 * `runtime/errors/codes.ts`, causes and fixes in `docs/errors.md`).
 */
import { codedErrorClass } from '../errors/coded-error.js';

/** A job, scheduled task or listener definition is invalid or its name is taken (`BINDERY_JOB_INVALID`). */
export const JobDefinitionError = codedErrorClass('JobDefinitionError', 'BINDERY_JOB_INVALID');
/** An instance of {@link JobDefinitionError}. */
export type JobDefinitionError = InstanceType<typeof JobDefinitionError>;

/** A payload was refused by the job's payload check, or is not JSON (`BINDERY_JOB_PAYLOAD_INVALID`). */
export const JobPayloadError = codedErrorClass('JobPayloadError', 'BINDERY_JOB_PAYLOAD_INVALID');
/** An instance of {@link JobPayloadError}. */
export type JobPayloadError = InstanceType<typeof JobPayloadError>;

/** A job, task or job ID that does not exist was named (`BINDERY_JOB_UNKNOWN`). */
export const UnknownJobError = codedErrorClass('UnknownJobError', 'BINDERY_JOB_UNKNOWN');
/** An instance of {@link UnknownJobError}. */
export type UnknownJobError = InstanceType<typeof UnknownJobError>;

/** A second job worker was started in one process (`BINDERY_JOBS_NOT_SET_UP`); a missing `jobs()` step is `ServiceNotSetUpError`. */
export const JobsNotSetUpError = codedErrorClass('JobsNotSetUpError', 'BINDERY_JOBS_NOT_SET_UP');
/** An instance of {@link JobsNotSetUpError}. */
export type JobsNotSetUpError = InstanceType<typeof JobsNotSetUpError>;

/** The database engine has no job queue backend yet (`BINDERY_JOBS_ENGINE_UNSUPPORTED`). */
export const JobsEngineUnsupportedError = codedErrorClass('JobsEngineUnsupportedError', 'BINDERY_JOBS_ENGINE_UNSUPPORTED');
/** An instance of {@link JobsEngineUnsupportedError}. */
export type JobsEngineUnsupportedError = InstanceType<typeof JobsEngineUnsupportedError>;
