/**
 * Running one attempt of a task, whatever the queue backend handed it over
 * (docs/jobs.md "Who queued it", "At least once", "Retries and failed jobs"):
 * the stored envelope unwrapped into payload and origin, the task's code run
 * inside its execution context and as the job run of its idempotency key,
 * observed when an observer is installed, a failure logged and rethrown for
 * the backend to retry.
 */
import type { FastifyBaseLogger } from 'fastify';
import { runInContext, type ExecutionContext } from '../context/execution-context.js';
import type { Services } from '../http/context.js';
import type { JobAttempt } from './backend.js';
import type { JobContext } from './define-job.js';
import { unwrapPayload } from './envelope.js';
import { jobRunObserverOf } from './job-observer.js';
import { runAsJob } from './job-run.js';
import { checkPayload, type TaskRegistration } from './queue.js';

const VIA_KIND = { job: 'job', schedule: 'schedule', listener: 'listener' } as const;

/** `job`, `scheduled task` or `listener`, for messages. */
export function kindWord(kind: TaskRegistration['kind']): string {
  return kind === 'job' ? 'job' : kind === 'schedule' ? 'scheduled task' : 'listener';
}

/**
 * Run `attempt` of `task`.
 * @param app the app's services (the handlers' `ctx.services`, where the run observer is found) and logger.
 * @throws whatever the task throws (after logging `BINDERY_JOB_FAILED`), or {@link JobPayloadError} when its payload check refuses the stored payload.
 */
export async function runAttempt(
  task: TaskRegistration,
  attempt: JobAttempt,
  app: { readonly services: Services; readonly log: FastifyBaseLogger },
): Promise<void> {
  const { payload, origin } = unwrapPayload(attempt.payload);
  const { id, idempotencyKey, maxAttempts } = attempt;
  const number = attempt.attempt;
  const observation = jobRunObserverOf(app.services)?.runStarted({
    name: task.name,
    kind: task.kind,
    id,
    attempt: number,
    maxAttempts,
    origin,
  });
  const traced = observation?.logFields();
  const log = app.log.child({ job: task.name, job_id: id, attempt: number, ...traced });
  const ctx: JobContext = {
    services: app.services,
    log,
    job: { id, name: task.name, attempt: number, maxAttempts, idempotencyKey },
    origin,
    signal: attempt.signal,
  };
  const execution: ExecutionContext = {
    via: { kind: VIA_KIND[task.kind], name: task.name },
    origin: origin.actor,
    ...(origin.requestId !== undefined ? { requestId: origin.requestId } : {}),
    ...(observation?.work !== undefined ? { telemetry: observation.work } : {}),
  };
  const runTask = () =>
    runAsJob(idempotencyKey, () => runInContext(execution, () => task.run(task.parse ? checkPayload(task, payload) : payload, ctx)));
  try {
    await (observation === undefined ? runTask() : observation.within(runTask));
    observation?.finished(undefined);
  } catch (error) {
    observation?.finished(error);
    const left = maxAttempts - number;
    const wait = Math.round(Math.exp(Math.min(number, 10)));
    log.warn(
      { err: error, code: 'BINDERY_JOB_FAILED' },
      `${kindWord(task.kind)} "${task.name}" (job ${id}) failed attempt ${number} of ${maxAttempts}: ${(error as Error)?.message ?? String(error)}${left > 0 ? `; retrying in about ${wait} s` : '; no attempts left (bindery jobs:failed lists it)'}`,
    );
    throw error;
  }
}
