/**
 * The `events()` setup step (docs/jobs.md "Events").
 */
import type { SetupStep } from '../app/setup-step.js';
import type { Services } from '../http/context.js';
import { requireJobsRuntime } from '../jobs/jobs-runtime.js';
import type { EventDefinition, EventName, EventPayloads } from './define-event.js';
import { EventBus, type EmitOptions, type EmitResult } from './event-bus.js';
import { EventError } from './errors.js';
import type { AnyEventDefinition, AnyListener } from './define-event.js';
import { notifyTaps } from './event-taps.js';

declare module '../http/context.js' {
  interface Services {
    /** The app's events (`events()` setup step): `await ctx.services.events.emit(name, payload, { tx })`. */
    events: EventBus;
  }
}

/** Options of {@link events}. */
export interface EventsOptions {
  /** Events the app declares (their payload checks apply to every emit). */
  readonly events?: readonly AnyEventDefinition[];
  /** The app's listeners (plugins bring theirs in their manifests). */
  readonly listeners?: readonly AnyListener[];
}

const buses = new WeakMap<object, EventBus>();

/**
 * The setup step for events; list it after `jobs()` (asynchronous listeners
 * are jobs), before the plugins.
 * @throws {EventError} when a listener is listed twice.
 * @example setup: [jobs(), schedule(), events({ listeners: [logSuppression] }), ...plugins(pluginList)]
 */
export function events(options: EventsOptions = {}): SetupStep {
  const listeners = options.listeners ?? [];
  const names = new Set<string>();
  for (const l of listeners) {
    if (names.has(l.name)) throw new EventError(`events() lists the listener "${l.name}" twice; keep one.`);
    names.add(l.name);
  }
  return {
    name: 'events',
    call: 'events()',
    requires: [{ name: 'jobs', call: 'jobs()' }],
    setup(ctx) {
      const runtime = requireJobsRuntime(ctx.services, 'events()');
      const bus = new EventBus(runtime, ctx.services as unknown as Services, ctx.log, ctx.database.db);
      for (const e of options.events ?? []) bus.declare(e, 'events()');
      for (const l of listeners) bus.listen(l, 'events()');
      ctx.services.events = bus;
      buses.set(ctx.services, bus);
    },
  };
}

/** The event bus of a booted app (from its services), or `undefined` without `events()`. */
export function eventBusOf(services: object): EventBus | undefined {
  return buses.get(services);
}

/**
 * Emit an event if the app has `events()`; do nothing otherwise. For
 * framework concepts and plugins whose events are optional extras
 * (`session:login_succeeded`): they work the same in apps without events.
 * @returns what {@link EventBus.emit} returns, or nothing run and nothing queued.
 * @example await emitEvent(ctx.services, 'session:login_succeeded', { userId }, { tx });
 */
export function emitEvent<N extends EventName>(
  services: object,
  event: N,
  payload: EventPayloads[N],
  options?: EmitOptions,
): Promise<EmitResult>;
export function emitEvent<P>(services: object, event: EventDefinition<P>, payload: P, options?: EmitOptions): Promise<EmitResult>;
export async function emitEvent(
  services: object,
  event: string | EventDefinition<unknown>,
  payload: unknown,
  options: EmitOptions = {},
): Promise<EmitResult> {
  const bus = buses.get(services);
  if (!bus) {
    notifyTaps(services, typeof event === 'string' ? event : event.name, payload);
    return { ran: 0, queued: [] };
  }
  return bus.emit(event as EventDefinition<unknown>, payload, options);
}
