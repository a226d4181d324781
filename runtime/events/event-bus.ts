/**
 * Emitting events to their listeners (docs/jobs.md "Events").
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Services } from '../http/context.js';
import type { JobsRuntime } from '../jobs/jobs-runtime.js';
import { isNamespacedName } from '../jobs/names.js';
import type { QueuedJob } from '../jobs/queue.js';
import type { EventDefinition, EventName, EventPayloads } from './define-event.js';
import { EventError } from './errors.js';
import type { AnyEventDefinition, AnyListener } from './define-event.js';
import type { AnyKysely } from '../db/any-kysely.js';
import { currentContext } from '../context/execution-context.js';
import { notifyTaps } from './event-taps.js';

/** Options of {@link EventBus.emit}. */
export interface EmitOptions {
  /**
   * The transaction the event happens in: `sync` listeners get it as `ctx.db`,
   * `async` listeners are queued in it (so they run only if it commits).
   */
  readonly tx?: AnyKysely;
}

/** What an `emit` did. */
export interface EmitResult {
  /** `sync` listeners run. */
  readonly ran: number;
  /** Jobs queued for `async` listeners. */
  readonly queued: readonly QueuedJob[];
}

/** The events of a booted app: `ctx.services.events` once `events()` is set up. */
export class EventBus {
  readonly #runtime: JobsRuntime;
  readonly #services: Services;
  readonly #log: FastifyBaseLogger;
  readonly #db: AnyKysely;
  readonly #events = new Map<string, { readonly definition: AnyEventDefinition; readonly owner: string }>();
  readonly #listeners = new Map<string, AnyListener[]>();
  readonly #owners = new Map<string, string>();

  /** @internal Made by the `events()` setup step. */
  constructor(runtime: JobsRuntime, services: Services, log: FastifyBaseLogger, db: AnyKysely) {
    this.#runtime = runtime;
    this.#services = services;
    this.#log = log;
    this.#db = db;
  }

  /**
   * Declare an event (its payload check then applies to every `emit`).
   * @throws {EventError} when another definition of that name was declared.
   */
  declare(definition: AnyEventDefinition, owner: string): void {
    const taken = this.#events.get(definition.name);
    if (taken && taken.definition !== definition)
      throw new EventError(`${owner} declares the event "${definition.name}", which ${taken.owner} already declares.`);
    this.#events.set(definition.name, { definition, owner });
  }

  /**
   * Add a listener. An `async` one is also registered as a task of the worker.
   * @throws {EventError} when its name is taken by another listener.
   * @throws {JobDefinitionError} when its name is taken by a job or scheduled task.
   */
  listen(listener: AnyListener, owner: string): void {
    const taken = this.#owners.get(listener.name);
    if (taken) throw new EventError(`${owner} adds the listener "${listener.name}", which ${taken} already adds.`);
    if (listener.definition) this.declare(listener.definition, owner);
    if (listener.mode === 'async') {
      this.#runtime.register({
        name: listener.name,
        kind: 'listener',
        owner,
        policy: { maxAttempts: listener.maxAttempts, queueName: listener.queueName, priority: listener.priority },
        ...(listener.description ? { description: listener.description } : {}),
        run: (payload, ctx) => {
          const definition = this.#events.get(listener.event)?.definition;
          const value = definition?.payload ? checkEventPayload(definition, payload) : payload;
          return listener.handle(value, { event: listener.event, services: ctx.services, log: ctx.log, db: this.#db, job: ctx.job });
        },
      });
    }
    this.#owners.set(listener.name, owner);
    this.#listeners.set(listener.event, [...(this.#listeners.get(listener.event) ?? []), listener]);
  }

  /** Declared events, sorted by name. */
  events(): AnyEventDefinition[] {
    return [...this.#events.values()].map((e) => e.definition).sort((a, b) => (a.name < b.name ? -1 : 1));
  }

  /** Listeners of an event, in registration order. */
  listenersOf(event: string): readonly AnyListener[] {
    return this.#listeners.get(event) ?? [];
  }

  /**
   * Emit an event: run its `sync` listeners in order (awaited; the first
   * error propagates and the rest do not run) and queue a job per `async`
   * listener — in `options.tx` when given, so the whole emit commits or rolls
   * back with the emitter's work.
   *
   * @param event the event's name (typed by {@link EventPayloads}) or definition.
   * @param payload JSON; checked by the event's payload check when declared with one.
   * @returns how many `sync` listeners ran and the jobs queued.
   * @throws {EventError} for a bad name or a refused payload; whatever a `sync` listener throws; what `queue.add` throws.
   * @example await services.events.emit('mailprovider:suppressed', { email, event: 'HardBounce', reason }, { tx });
   */
  emit<N extends EventName>(event: N, payload: EventPayloads[N], options?: EmitOptions): Promise<EmitResult>;
  emit<P>(event: EventDefinition<P>, payload: P, options?: EmitOptions): Promise<EmitResult>;
  async emit(event: string | EventDefinition<unknown>, payload: unknown, options: EmitOptions = {}): Promise<EmitResult> {
    const name = typeof event === 'string' ? event : event.name;
    if (!isNamespacedName(name)) throw new EventError(`Cannot emit ${JSON.stringify(name)}: event names are "<namespace>:<name>".`);
    const definition = typeof event === 'string' ? this.#events.get(name)?.definition : event;
    const value = definition?.payload ? checkEventPayload(definition, payload) : payload;
    notifyTaps(this.#services, name, value);
    const db = options.tx ?? this.#db;
    let ran = 0;
    const queued: QueuedJob[] = [];
    const telemetry = currentContext()?.telemetry;
    for (const listener of this.#listeners.get(name) ?? []) {
      if (listener.mode === 'sync') {
        const run = async () => listener.handle(value, { event: name, services: this.#services, log: this.#log, db });
        await (telemetry === undefined ? run() : telemetry.runListener({ name: listener.name, event: name }, run));
        ran++;
      } else {
        queued.push(await this.#runtime.queue.enqueue(this.#runtime.task(listener.name)!, payload, options.tx ? { tx: options.tx } : {}));
      }
    }
    return { ran, queued };
  }
}

function checkEventPayload(definition: AnyEventDefinition, payload: unknown): unknown {
  try {
    return definition.payload!(payload);
  } catch (error) {
    throw new EventError(`The payload of the event "${definition.name}" was refused: ${(error as Error)?.message ?? String(error)}`, {
      cause: error,
    });
  }
}
