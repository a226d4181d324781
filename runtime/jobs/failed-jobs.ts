/**
 * Failed jobs: listing them and running one again, through the queue
 * backend (docs/jobs.md "Retries and failed jobs").
 */
import type { FailedJob } from './backend.js';
import { UnknownJobError } from './errors.js';
import { queueBackendOf, type JobsDatabase } from './select-backend.js';

export type { FailedJob };

/**
 * Every job whose last attempt failed and that no worker holds, oldest first.
 * @param database the app's database: `services.db`, or a `Database` (`{ db, engine }`) — see docs/jobs.md "Retries and failed jobs".
 * @throws {JobsEngineUnsupportedError} for a `Database` whose engine has no queue backend.
 */
export async function listFailedJobs(database: JobsDatabase): Promise<FailedJob[]> {
  const { backend, db } = queueBackendOf(database);
  return backend.failedJobs(db);
}

/**
 * Make a waiting job due now with its attempts counted from zero.
 * @param database as for {@link listFailedJobs}.
 * @param id the job's ID, from {@link listFailedJobs} or `bindery jobs:failed`.
 * @returns its ID and name.
 * @throws {UnknownJobError} when no unlocked job has that ID.
 */
export async function retryJob(database: JobsDatabase, id: string): Promise<{ id: string; name: string }> {
  const { backend, db } = queueBackendOf(database);
  const job = await backend.retry(db, id);
  if (job === undefined)
    throw new UnknownJobError(
      `No waiting job has the ID ${id} (it succeeded and was removed, or it is running); "bindery jobs:failed" lists the failed ones.`,
    );
  return job;
}
