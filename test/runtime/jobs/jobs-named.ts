/**
 * How many jobs of one name are still in an app's queue, on any engine
 * (graphile-worker's or the MySQL queue): waiting, running, or failed for
 * good — what a test waits to see reach 0 once the worker has run them.
 */
import type { AnyKysely } from '../../../runtime/db/any-kysely.js';
import { jobsRuntimeOf } from '../../../runtime/jobs/jobs-runtime.js';

/**
 * @param services the app's services (`t.running.services`), whose jobs() step made the queue.
 * @param db the app's Kysely.
 * @param name the job's (task's) name, e.g. `mailprovider:webhook`.
 * @throws {Error} when the app has no jobs() step.
 */
export async function jobsNamed(services: object, db: unknown, name: string): Promise<number> {
  const runtime = jobsRuntimeOf(services);
  if (runtime === undefined) throw new Error('jobsNamed: the app has no jobs() step');
  const k = db as AnyKysely;
  const pending = (await runtime.backend.pendingJobs(k, 10_000)) ?? [];
  const failed = await runtime.backend.failedJobs(k);
  return pending.filter((j) => j.name === name).length + failed.filter((j) => j.permanent && j.name === name).length;
}
