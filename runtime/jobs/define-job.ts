/**
 * Declaring jobs (docs/jobs.md "Declaring a job").
 *
 * A job is a name, a payload check, a handler and a retry policy. The app
 * lists its jobs in `jobs({ jobs: [...] })`; a plugin in its manifest. The
 * payload is JSON; the check runs when the job is queued (so a bad payload
 * fails the caller, not the worker) and again when it runs.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Actor, Via } from '../context/execution-context.js';
import type { TraceCarrier } from '../context/work-telemetry.js';
import type { Services } from '../http/context.js';
import { JobDefinitionError } from './errors.js';
import { isNamespacedName } from './names.js';

/**
 * Payload types of jobs by name, for `queue.add('<name>', payload)`.
 * Declare yours by declaration merging:
 *
 * ```ts
 * declare module 'bindery/jobs' { interface JobPayloads { 'app:send_welcome': { userId: number } } }
 * ```
 */
// biome-ignore lint/suspicious/noEmptyInterface: empty on purpose, an interface (not a type) so the app and generated code can add members by declaration merging.
export interface JobPayloads {}

/** The work that queued a job: its actor (docs/spec.md 5.8 rule 3), request ID and via. */
export interface JobOrigin {
  /** Who queued it: the signed-in user, the explicit actor, or `system`. */
  readonly actor: Actor;
  /** The request ID of the request that queued it, if one did. */
  readonly requestId?: string;
  /** How the queuing work ran: `{ kind: 'request', name: 'POST /mailprovider/webhook' }`. */
  readonly via?: Via;
  /** The trace context of the queuing work when it was traced: the job's run continues that trace (docs/observability.md). */
  readonly trace?: TraceCarrier;
}

/** What a job handler receives besides its payload. */
export interface JobContext {
  /** The app's services (`db`, `queue`, `events`, the plugins'), as handlers see them. */
  readonly services: Services;
  /** The app logger, with the job's name and ID. */
  readonly log: FastifyBaseLogger;
  /** This run: the queue backend's job ID (graphile-worker's on PostgreSQL), the attempt number (1 on the first run) and the attempts allowed. */
  readonly job: {
    readonly id: string;
    readonly name: string;
    readonly attempt: number;
    readonly maxAttempts: number;
    /**
     * The same on every run of this job — retries, and the rerun after its
     * worker died (docs/jobs.md "When a worker dies") — and different for
     * every other job (on PostgreSQL `graphile-worker:<id>:<revision>`). Derive the keys of
     * the job's side effects from it, so that a rerun does not repeat them
     * (docs/jobs.md "At least once"); the mailer does so itself.
     */
    readonly idempotencyKey: string;
  };
  /** The work that queued the job. */
  readonly origin: JobOrigin;
  /** Aborts when the worker shuts down and the job should stop early (graceful shutdown waits for it otherwise). */
  readonly signal: AbortSignal;
}

/** How a failed job is retried. */
export interface RetryPolicy {
  /**
   * Attempts in all, the first included (default 25, graphile-worker's). After
   * a failure the next attempt waits e^attempt seconds, at most e^10 s ≈ 6 h
   * (2.7 s, 7.4 s, 20 s, 55 s, 2.5 min, …): graphile-worker's backoff.
   */
  readonly maxAttempts?: number;
  /** Jobs of one queue name run one at a time, in order (default: none, in parallel). */
  readonly queueName?: string;
  /** Lower runs first (default 0). */
  readonly priority?: number;
}

/** What {@link defineJob} takes. */
export interface JobSpec<P> extends RetryPolicy {
  /** `<namespace>:<name>`, e.g. `app:send_welcome`, `mailprovider:webhook`. */
  readonly name: string;
  /** What the job does, for `bindery jobs:failed` and docs. */
  readonly description?: string;
  /**
   * Checks a payload and returns it typed; throws (any error) to refuse it.
   * Runs when queued and when run. Default: any JSON value is accepted as `P`.
   */
  readonly payload?: (raw: unknown) => P;
  /** The work. Throwing fails this attempt (it is retried with backoff). Runs inside an execution context with via `{ kind: 'job', name }` and the queuing work's actor as `origin`. */
  readonly handle: (payload: P, ctx: JobContext) => void | Promise<void>;
}

/** A declared job. Create it with {@link defineJob}. */
export interface JobDefinition<P = unknown> extends JobSpec<P> {
  readonly kind: 'job';
}

/** The payload type of a job definition. */
export type PayloadOf<J> = J extends JobDefinition<infer P> ? P : never;

/** Checks the retry options shared by jobs and scheduled tasks. @throws {JobDefinitionError} */
export function checkRetryPolicy(what: string, policy: RetryPolicy): void {
  if (policy.maxAttempts !== undefined && (!Number.isInteger(policy.maxAttempts) || policy.maxAttempts < 1 || policy.maxAttempts > 32767)) {
    throw new JobDefinitionError(`${what}: maxAttempts must be a whole number from 1 to 32767, got ${String(policy.maxAttempts)}.`);
  }
  if (policy.priority !== undefined && (!Number.isInteger(policy.priority) || Math.abs(policy.priority) > 32767)) {
    throw new JobDefinitionError(`${what}: priority must be a whole number from -32767 to 32767, got ${String(policy.priority)}.`);
  }
  if (policy.queueName !== undefined && (typeof policy.queueName !== 'string' || policy.queueName.trim() === '')) {
    throw new JobDefinitionError(`${what}: queueName must be a non-empty string.`);
  }
}

/**
 * Declare a job.
 *
 * Rules: the name is `<namespace>:<name>` (lower case; a plugin's jobs use
 * the plugin's name as namespace); the payload is JSON; `maxAttempts` is 1 to
 * 32767 (default 25).
 *
 * @returns the definition, to list in `jobs({ jobs })` or a plugin manifest and to pass to `queue.add`.
 * @throws {JobDefinitionError} for a bad name or retry policy.
 * @example
 *   export const sendWelcome = defineJob({
 *     name: 'app:send_welcome',
 *     payload: (raw) => { if (typeof (raw as any)?.userId !== 'number') throw new Error('userId must be a number'); return raw as { userId: number }; },
 *     maxAttempts: 5,
 *     async handle({ userId }, { services }) { await services.mailer.welcome(userId); },
 *   });
 *   await services.queue.add(sendWelcome, { userId: 42 }, { tx });
 */
export function defineJob<P = unknown>(spec: JobSpec<P>): JobDefinition<P> {
  if (!isNamespacedName(spec.name)) {
    throw new JobDefinitionError(
      `Job name ${JSON.stringify(spec.name)} is invalid: use "<namespace>:<name>" in lower case, e.g. "app:send_welcome".`,
    );
  }
  if (typeof spec.handle !== 'function') throw new JobDefinitionError(`Job "${spec.name}" has no handle function.`);
  if (spec.payload !== undefined && typeof spec.payload !== 'function')
    throw new JobDefinitionError(`Job "${spec.name}": payload must be a function that checks and returns the payload.`);
  checkRetryPolicy(`Job "${spec.name}"`, spec);
  return Object.freeze({ ...spec, kind: 'job' as const });
}

/** True when `value` was made by {@link defineJob}. */
export function isJobDefinition(value: unknown): value is JobDefinition<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { kind?: unknown }).kind === 'job' &&
    typeof (value as { handle?: unknown }).handle === 'function'
  );
}

/** A job definition of any payload type, as kept in registries and lists. */
// biome-ignore lint/suspicious/noExplicitAny: lists mix jobs of different payload types and `run` takes the payload (contravariant); `any` stands for "some payload".
export type AnyJobDefinition = JobDefinition<any>;
