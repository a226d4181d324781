/**
 * Queuing jobs (docs/jobs.md "Queuing").
 *
 * `queue.add` has the queue backend store the job on the Kysely instance or
 * transaction it is given (`graphile_worker.add_job` on PostgreSQL, an
 * insert into `jobs_queue` on MySQL and MariaDB), so a
 * job added inside a transaction exists only if that transaction commits: a
 * rolled-back job never runs. The actor of the work that queues it
 * (docs/spec.md 5.8) and its request ID travel in the stored payload and
 * become the job's `origin`; so does its trace context when the work is
 * traced (docs/observability.md).
 */
import { currentContext, resolveActor } from '../context/execution-context.js';
import type { JobDefinition, JobOrigin, JobPayloads } from './define-job.js';
import { wrapPayload } from './envelope.js';
import { JobPayloadError, UnknownJobError } from './errors.js';
import type { JobContext, RetryPolicy } from './define-job.js';
import type { AnyKysely } from '../db/any-kysely.js';
import type { QueueBackend } from './backend.js';

/** One task the workers run: a job, a scheduled task or an asynchronous listener. */
export interface TaskRegistration {
  readonly name: string;
  readonly kind: 'job' | 'schedule' | 'listener';
  /** Who declared it, for messages: `jobs()`, `schedule()`, `the plugin "mailprovider"`. */
  readonly owner: string;
  /** The payload check (jobs and listeners with one). */
  readonly parse?: (raw: unknown) => unknown;
  readonly policy: RetryPolicy;
  /** The work, inside the task's execution context. */
  readonly run: (payload: unknown, ctx: JobContext) => void | Promise<void>;
  /** What it does, for listings. */
  readonly description?: string;
}

/** The task registry a queue looks names up in (the jobs runtime). */
export interface TaskLookup {
  /** The task registered under `name`, if any. */
  task(name: string): TaskRegistration | undefined;
  /** The names of the registered tasks, of one kind or all. */
  taskNames(kind?: TaskRegistration['kind']): string[];
}

/** Options of {@link Queue.add}. */
export interface AddJobOptions {
  /**
   * The Kysely transaction to queue in (`db.transaction().execute(async (tx) => …)`):
   * the job is queued only if it commits. Default: the app's database, outside any transaction.
   */
  readonly tx?: AnyKysely;
  /** Run no earlier than this time (default: now). */
  readonly runAt?: Date;
  /**
   * A unique key: queuing again with the same key replaces the waiting job
   * (on PostgreSQL graphile-worker's `job_key`, mode `replace`; on MySQL and
   * MariaDB the same rules) instead of adding a second one.
   */
  readonly jobKey?: string;
  /** Overrides the job's `maxAttempts`. */
  readonly maxAttempts?: number;
  /** Overrides the job's `priority`. */
  readonly priority?: number;
  /** Overrides the job's `queueName`. */
  readonly queueName?: string;
}

/** A queued job: the queue backend's job ID (a decimal string) and the job's name. */
export interface QueuedJob {
  readonly id: string;
  readonly name: string;
}

/** Names of jobs with a registered payload type (see {@link JobPayloads}). */
export type JobName = keyof JobPayloads & string;

/** The queue: `ctx.services.queue` in handlers, jobs and commands once `jobs()` is set up. */
export class Queue {
  readonly #runtime: TaskLookup;
  readonly #db: AnyKysely;
  readonly #backend: QueueBackend;

  /** @internal Made by the `jobs()` setup step. */
  constructor(runtime: TaskLookup, db: AnyKysely, backend: QueueBackend) {
    this.#runtime = runtime;
    this.#db = db;
    this.#backend = backend;
  }

  /**
   * Queue a job.
   *
   * The payload is checked by the job's `payload` function (when it has
   * one), then stored with the current actor (docs/spec.md 5.8: explicit actor,
   * signed-in user, the origin of the job running now, else `system`) and
   * request ID.
   *
   * @param job the job's definition, or its name when its payload type is declared in {@link JobPayloads}.
   * @param payload JSON: objects, arrays, strings, numbers, booleans, null.
   * @param options `tx` to queue inside a transaction; `runAt`, `jobKey`, and overrides of the retry policy.
   * @returns the job's ID and name.
   * @throws {UnknownJobError} when no setup step or plugin declares the job.
   * @throws {JobPayloadError} when the payload check refuses it or it is not JSON; nothing is queued.
   * @throws whatever loading the signed-in user throws (attribution fails, and the queuing with it).
   * @example
   *   await db.transaction().execute(async (tx) => {
   *     const user = await tx.insertInto('users').values(row).returningAll().executeTakeFirstOrThrow();
   *     await services.queue.add(sendWelcome, { userId: user.id }, { tx }); // queued only if the insert commits
   *   });
   */
  add<N extends JobName>(job: N, payload: JobPayloads[N], options?: AddJobOptions): Promise<QueuedJob>;
  add<P>(job: JobDefinition<P>, payload: P, options?: AddJobOptions): Promise<QueuedJob>;
  async add(job: string | JobDefinition<unknown>, payload: unknown, options: AddJobOptions = {}): Promise<QueuedJob> {
    const name = typeof job === 'string' ? job : job.name;
    const registration = this.#runtime.task(name);
    if (registration === undefined || registration.kind !== 'job') {
      const known = this.#runtime.taskNames('job');
      throw new UnknownJobError(
        `No job is named "${name}"${registration ? ` (it is a ${registration.kind === 'schedule' ? 'scheduled task' : 'listener'}, queued by bindery itself)` : ''}; declare it in jobs({ jobs: [...] }) or a plugin manifest.${known.length ? ` Known jobs: ${known.join(', ')}.` : ''}`,
      );
    }
    return this.enqueue(registration, payload, options);
  }

  /**
   * Queue any registered task (job, scheduled task, asynchronous listener) — what `add`,
   * `events.emit` and `bindery schedule:run` use. @internal
   */
  async enqueue(task: TaskRegistration, payload: unknown, options: AddJobOptions = {}): Promise<QueuedJob> {
    // Checked now so a bad payload fails the caller; stored as given and checked again when it runs.
    if (task.parse) checkPayload(task, payload);
    const context = currentContext();
    const origin: JobOrigin = {
      actor: await resolveActor(context),
      ...(context?.requestId !== undefined ? { requestId: context.requestId } : {}),
      ...(context !== undefined ? { via: { kind: context.via.kind, name: context.via.name } } : {}),
    };
    const telemetry = context?.telemetry;
    if (telemetry === undefined) return this.#insert(task, payload, origin, options);
    return telemetry.queueJob({ name: task.name, kind: task.kind }, (trace) =>
      this.#insert(task, payload, trace === undefined ? origin : { ...origin, trace }, options),
    );
  }

  /** Store the job (in `options.tx` when given). */
  async #insert(task: TaskRegistration, payload: unknown, origin: JobOrigin, options: AddJobOptions): Promise<QueuedJob> {
    let text: string;
    try {
      text = JSON.stringify(wrapPayload(payload === undefined ? null : payload, origin));
    } catch (error) {
      throw new JobPayloadError(
        `The payload of job "${task.name}" is not JSON: ${(error as Error).message}. Pass plain objects, arrays, strings, numbers, booleans and null.`,
        { cause: error },
      );
    }
    const policy = task.policy;
    const id = await this.#backend.enqueue(options.tx ?? this.#db, {
      name: task.name,
      payload: text,
      queueName: options.queueName ?? policy.queueName,
      runAt: options.runAt,
      maxAttempts: options.maxAttempts ?? policy.maxAttempts,
      jobKey: options.jobKey,
      priority: options.priority ?? policy.priority,
    });
    return { id, name: task.name };
  }
}

/** Run a task's payload check, turning its failure into a {@link JobPayloadError}. */
export function checkPayload(task: TaskRegistration, payload: unknown): unknown {
  try {
    return task.parse!(payload);
  } catch (error) {
    throw new JobPayloadError(`The payload of "${task.name}" was refused: ${(error as Error)?.message ?? String(error)}`, { cause: error });
  }
}
