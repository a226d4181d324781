/**
 * Declaring events and listeners (docs/jobs.md "Events").
 *
 * Events are typed and namespaced: `session:login_succeeded`,
 * `mailprovider:suppressed`. A listener runs either in process, during
 * `emit` (mode `sync`, the default: it sees the emitter's transaction), or
 * as a job on the app's workers (mode `async`: queued in the emitter's
 * transaction, retried with backoff, attributed to the emitter's actor).
 */
import type { FastifyBaseLogger } from 'fastify';
import { checkRetryPolicy, type JobContext, type RetryPolicy } from '../jobs/define-job.js';
import { isNamespacedName } from '../jobs/names.js';
import type { Services } from '../http/context.js';
import { EventError } from './errors.js';
import type { AnyKysely } from '../db/any-kysely.js';

/**
 * Payload types of events by name, for `events.emit('<name>', payload)` and
 * listeners by name. Declare yours by declaration merging:
 *
 * ```ts
 * declare module 'bindery/events' { interface EventPayloads { 'app:signed_up': { userId: number } } }
 * ```
 */
// biome-ignore lint/suspicious/noEmptyInterface: empty on purpose, an interface (not a type) so the app and generated code can add members by declaration merging.
export interface EventPayloads {}

/** Names of events with a declared payload type. */
export type EventName = keyof EventPayloads & string;

/** What {@link defineEvent} takes. */
export interface EventSpec<P> {
  /** `<namespace>:<name>`, e.g. `mailprovider:suppressed`. */
  readonly name: string;
  readonly description?: string;
  /** Checks a payload and returns it typed; throws to refuse it (then `emit` throws). Default: any JSON value. */
  readonly payload?: (raw: unknown) => P;
}

/** A declared event. Create it with {@link defineEvent}. */
export interface EventDefinition<P = unknown> extends EventSpec<P> {
  readonly kind: 'event';
}

/**
 * Declare an event: its name, and optionally a payload check.
 * @throws {EventError} for a name that is not `<namespace>:<name>`.
 * @example export const suppressed = defineEvent<{ email: string; event: string }>({ name: 'mailprovider:suppressed' });
 */
export function defineEvent<P = unknown>(spec: EventSpec<P>): EventDefinition<P> {
  if (!isNamespacedName(spec.name)) {
    throw new EventError(
      `Event name ${JSON.stringify(spec.name)} is invalid: use "<namespace>:<name>" in lower case, e.g. "session:login_succeeded".`,
    );
  }
  if (spec.payload !== undefined && typeof spec.payload !== 'function')
    throw new EventError(`Event "${spec.name}": payload must be a function that checks and returns the payload.`);
  return Object.freeze({ ...spec, kind: 'event' as const });
}

/** What a listener receives besides the payload. */
export interface ListenerContext {
  /** The event's name. */
  readonly event: string;
  readonly services: Services;
  readonly log: FastifyBaseLogger;
  /**
   * `sync` listeners: the transaction `emit` was given (write in it to commit or
   * roll back with the emitter), or the app's database. `async` listeners: the app's database.
   */
  readonly db: AnyKysely;
  /** `async` listeners: the job running them (ID, attempt); `undefined` for `sync` ones. */
  readonly job?: JobContext['job'];
}

/** What {@link defineListener} takes. */
export interface ListenerSpec<P> extends RetryPolicy {
  /** `<namespace>:<name>`, unique among listeners, jobs and scheduled tasks, e.g. `app:notify_suppression`. */
  readonly name: string;
  /** The event's name, or its definition. */
  readonly event: string | EventDefinition<P>;
  /** `sync` (default): runs during `emit`, in process; `async`: queued as a job (`maxAttempts`, `queueName`, `priority` apply). */
  readonly mode?: 'sync' | 'async';
  readonly description?: string;
  /** The work. A `sync` listener's error propagates to `emit`; an `async` one's fails its job (retried). */
  readonly handle: (payload: P, ctx: ListenerContext) => void | Promise<void>;
}

/** A declared listener. Create it with {@link defineListener}. */
export interface Listener<P = unknown> extends Omit<ListenerSpec<P>, 'event' | 'mode'> {
  readonly kind: 'listener';
  readonly event: string;
  readonly mode: 'sync' | 'async';
  /** The event's definition when the listener was given one. */
  readonly definition?: EventDefinition<P>;
}

/**
 * Declare a listener.
 *
 * @returns the listener, to list in `events({ listeners })` or a plugin manifest.
 * @throws {EventError} for a bad name, event name or mode.
 * @throws {JobDefinitionError} for a bad retry policy.
 * @example
 *   export const logSuppression = defineListener({
 *     name: 'app:log_suppression',
 *     event: 'mailprovider:suppressed',
 *     mode: 'async',
 *     async handle({ email }, { log }) { log.info({ email }, 'address suppressed'); },
 *   });
 */
export function defineListener<N extends EventName>(
  spec: ListenerSpec<EventPayloads[N]> & { readonly event: N },
): Listener<EventPayloads[N]>;
export function defineListener<P>(spec: ListenerSpec<P> & { readonly event: EventDefinition<P> }): Listener<P>;
/** An event without a declared payload type: the payload is `unknown`. */
export function defineListener(spec: ListenerSpec<unknown> & { readonly event: string }): Listener<unknown>;
export function defineListener(spec: ListenerSpec<unknown>): Listener<unknown> {
  const event = typeof spec.event === 'string' ? spec.event : spec.event?.name;
  if (!isNamespacedName(spec.name)) {
    throw new EventError(
      `Listener name ${JSON.stringify(spec.name)} is invalid: use "<namespace>:<name>" in lower case, e.g. "app:notify_suppression".`,
    );
  }
  if (!isNamespacedName(event))
    throw new EventError(`Listener "${spec.name}" listens to ${JSON.stringify(event)}, which is not an event name ("<namespace>:<name>").`);
  const mode = spec.mode ?? 'sync';
  if (mode !== 'sync' && mode !== 'async')
    throw new EventError(`Listener "${spec.name}": mode must be "sync" or "async", got ${JSON.stringify(mode)}.`);
  if (typeof spec.handle !== 'function') throw new EventError(`Listener "${spec.name}" has no handle function.`);
  checkRetryPolicy(`Listener "${spec.name}"`, spec);
  const { event: _event, mode: _mode, ...rest } = spec;
  return Object.freeze({
    ...rest,
    kind: 'listener' as const,
    event,
    mode,
    ...(typeof spec.event === 'string' ? {} : { definition: spec.event }),
  });
}

/** True when `value` was made by {@link defineListener}. */
export function isListener(value: unknown): value is Listener<unknown> {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'listener';
}

/** True when `value` was made by {@link defineEvent}. */
export function isEventDefinition(value: unknown): value is EventDefinition<unknown> {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'event';
}

/** An event definition of any payload type, as kept in registries and lists. */
// biome-ignore lint/suspicious/noExplicitAny: lists mix events of different payload types and the payload check is contravariant; TypeScript has no existential type, so `any` stands for "some payload".
export type AnyEventDefinition = EventDefinition<any>;

/** A listener of any payload type, as kept in registries and lists. */
// biome-ignore lint/suspicious/noExplicitAny: lists mix listeners of different payload types and `handle` takes the payload (contravariant); `any` stands for "some payload".
export type AnyListener = Listener<any>;
