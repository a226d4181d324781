/**
 * The execution context: who is acting and through what, for the work
 * running now (a request, a CLI command, a queued job, a listener).
 *
 * Carried with `AsyncLocalStorage`, so code deep inside the data layer (the
 * audit log) learns the actor without threading it through every call.
 * Implements the attribution order of docs/spec.md 5.8:
 *
 * 1. the actor set explicitly ({@link withActor});
 * 2. the signed-in user, or the user a job acts as ({@link ExecutionContext.resolveUser});
 *    if that user cannot be loaded, attribution fails and the write with it;
 * 3. in a queued job or asynchronous listener, the actor of the work that queued it;
 * 4. otherwise `system`.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { WorkTelemetry } from './work-telemetry.js';

/** Who made a change: `{ type: 'user', id: '42' }`, `{ type: 'system', id: '' }`, or an application type. */
export interface Actor {
  readonly type: string;
  /** At most 100 bytes (docs/spec.md 6.1 rule 9); empty for `system`. */
  readonly id: string;
}

/** Through what a change was made: `{ kind: 'request', name: 'PATCH /api/documents/42' }`, `{ kind: 'command', name: 'audit:prune' }`, `{ kind: 'job', name: 'mailprovider:webhook' }`. */
export interface Via {
  readonly kind: string;
  readonly name: string;
  /** The client program, when the work came through one that names itself (an MCP client's name and version from its handshake; docs/mcp.md "Audit"). */
  readonly client?: { readonly name: string; readonly version: string };
}

/** The system actor (docs/spec.md 5.8, last in the order). */
export const SYSTEM_ACTOR: Actor = Object.freeze({ type: 'system', id: '' });

/** The context of the work running now. Fields other than `actor` never change once set. */
export interface ExecutionContext {
  readonly via: Via;
  /** The request ID (`X-Request-ID`) of a request, or the job's origin request. */
  readonly requestId?: string;
  /** The client IP address of a request (audit stores it only when `AUDIT_IP` allows). */
  readonly ip?: string;
  /** Explicit actor (rule 1). Set with {@link withActor}. */
  readonly actor?: Actor;
  /**
   * The signed-in user or the user a job acts as (rule 2), loaded on demand.
   * Resolves `null` for a guest; rejects when a signed-in user cannot be loaded.
   */
  readonly resolveUser?: () => Promise<Actor | null>;
  /** The actor of the work that queued this job or listener (rule 3). */
  readonly origin?: Actor;
  /**
   * The condition a policy puts on `table`'s rows for `action` (a Kysely
   * `where` argument), or undefined when no policy covers the table: the
   * audit layer's bulk writes apply it (docs/authorization.md "Bulk
   * writes"). Requests of an app with `authorization()` give it; jobs,
   * commands and listeners do not, so their bulk writes are not narrowed.
   */
  readonly policyScope?: (table: string, action: string) => Promise<unknown>;
  /** What this work reports to the app's observability, when it is observed (docs/observability.md). */
  readonly telemetry?: WorkTelemetry;
}

const storage = new AsyncLocalStorage<ExecutionContext>();

/**
 * Run `fn` inside `context`; everything it awaits sees the context.
 * @example runInContext({ via: { kind: 'command', name: 'prune' } }, () => prune())
 */
export function runInContext<T, A extends unknown[]>(context: ExecutionContext, fn: (...args: A) => T, ...args: A): T {
  return storage.run(context, fn, ...args);
}

/** The context of the work running now, or `undefined` outside any. */
export function currentContext(): ExecutionContext | undefined {
  return storage.getStore();
}

/**
 * Run `fn` with an explicit actor (rule 1), keeping the rest of the current context.
 * @example await withActor({ type: 'admin', id: '7' }, () => documents.update(...))
 */
export function withActor<T>(actor: Actor, fn: () => T): T {
  const current = storage.getStore();
  // Copy field by field: a request's context reads `via` and `ip` through getters.
  const next: ExecutionContext =
    current === undefined
      ? { via: { kind: 'code', name: 'withActor' }, actor }
      : {
          via: current.via,
          requestId: current.requestId,
          ip: current.ip,
          resolveUser: current.resolveUser?.bind(current),
          origin: current.origin,
          policyScope: current.policyScope?.bind(current),
          telemetry: current.telemetry,
          actor,
        };
  return storage.run(next, fn);
}

/**
 * Run `fn` through another `via` (what the audit log records as `via_kind`
 * and `via_name`), keeping the rest of the current context — the actor, the
 * signed-in user, the request ID. Outside any context, `fn` runs with `via`
 * alone (its changes are the system's).
 * @example await withVia({ kind: 'admin', name: 'back-office documents.update' }, () => models.Document.update(1, values))
 */
export function withVia<T>(via: Via, fn: () => T): T {
  const current = storage.getStore();
  const next: ExecutionContext =
    current === undefined
      ? { via }
      : {
          via,
          requestId: current.requestId,
          ip: current.ip,
          resolveUser: current.resolveUser?.bind(current),
          origin: current.origin,
          actor: current.actor,
          policyScope: current.policyScope?.bind(current),
          telemetry: current.telemetry,
        };
  return storage.run(next, fn);
}

/**
 * The actor to record for a change made now, by the order of docs/spec.md 5.8.
 * @throws whatever `resolveUser` throws when a signed-in user cannot be loaded.
 */
export async function resolveActor(context: ExecutionContext | undefined = storage.getStore()): Promise<Actor> {
  if (!context) return SYSTEM_ACTOR;
  if (context.actor) return context.actor;
  if (context.resolveUser) {
    const user = await context.resolveUser();
    if (user) return user;
  }
  return context.origin ?? SYSTEM_ACTOR;
}
