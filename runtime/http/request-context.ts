/**
 * The per-request context handed to middleware and handlers (see context.ts).
 */
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { RouteDefinition } from '../routing/route-table.js';
import type { UrlBuilder } from '../results/url-builder.js';
import type { ClientKind, RequestContext, Services } from './context.js';
import { decideClientKind } from './client-kind.js';
import type { DeadlineEntry } from './deadlines.js';
import type { OutcomeHook } from './outcome-hook.js';
import { requestLog } from './request-log.js';
import type { Actor, ExecutionContext, Via } from '../context/execution-context.js';
import { BinderyError } from '../errors/bindery-error.js';
import type { Session } from '../session/session.js';
import { GUEST } from '../context/request-auth.js';
import './auth-context.js';
import './policy-context.js';
import type { AnyRequestAuth } from '../context/request-auth.js';
import type { Policies } from '../authorization/policies.js';
import { authorizeRequest } from '../authorization/request-authorizer.js';
import { NO_ROWS, type RowScope } from '../authorization/scopes.js';
import type { Row } from '../authorization/rules.js';
import type { WorkTelemetry } from '../context/work-telemetry.js';
import { observationOf } from './request-observer.js';
import { internalCallOf, type InternalCall } from './internal-call.js';
import { i18nOf, requestLocale } from './request-i18n.js';
import type { MessageValues } from '../i18n/translator.js';
import './locale-context.js';

/**
 * The runtime's {@link RequestContext}: one object per request, built
 * without closures; the client kind is decided on first use and kept.
 */
export class HttpRequestContext implements RequestContext, ExecutionContext, DeadlineEntry {
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  readonly route: RouteDefinition;
  readonly requestId: string;
  readonly services: Services;
  /** Set once the request is answered (result, error or timeout); later outcomes are dropped. @internal */
  settled = false;
  /** Set when the request timeout answered 503. @internal */
  timedOut = false;
  /** Request-timeout tracking (see deadlines.ts). @internal */
  deadline = 0;
  /** @internal */
  prevPending: DeadlineEntry | null = null;
  /** @internal */
  nextPending: DeadlineEntry | null = null;
  /**
   * The signed-in user as an audit actor (docs/spec.md 5.8), from `ctx.auth`: `null`
   * for a guest; rejects when a signed-in user cannot be loaded.
   * @see ExecutionContext.resolveUser
   */
  resolveUser(): Promise<Actor | null> {
    return this.auth.actor();
  }
  /**
   * The request's session, set by the `session` middleware (runtime/session);
   * `undefined` on routes without it. Read it through {@link session}. @internal
   */
  sessionState: Session | undefined = undefined;
  /** Called by the pipeline once the middleware chain finished (see outcome-hook.ts); set by the session middleware. @internal */
  outcomeHook: OutcomeHook | undefined = undefined;
  /** Who is making the request (runtime/auth): a guest until the `auth` or `token` middleware signs it in. */
  auth: AnyRequestAuth = GUEST;
  readonly #urls: UrlBuilder;
  /** The internal call (an MCP tool call) this request is, or undefined (internal-call.ts). */
  readonly #internal: InternalCall | undefined;
  #via: Via | undefined;
  #client: ClientKind | undefined;

  constructor(request: FastifyRequest, reply: FastifyReply, route: RouteDefinition, services: Services, urls: UrlBuilder) {
    this.request = request;
    this.reply = reply;
    this.route = route;
    this.requestId = request.id;
    const internal = internalCallOf(request);
    this.#internal = internal;
    this.services = internal?.services ?? services;
    this.#urls = urls;
  }

  /**
   * Whether the request is a dry run (an MCP tool call with `dryRun: true`,
   * docs/mcp.md "Dry run"): its database writes, audit entries and queued
   * jobs are rolled back once it is answered. A handler with a side effect
   * outside the database (an HTTP call, a file stored, a mail sent
   * directly) skips it when this is true.
   */
  get dryRun(): boolean {
    return this.#internal?.dryRun === true;
  }

  /** The request's logger, bound to its request ID; made on first use. */
  get log(): FastifyBaseLogger {
    return requestLog(this.request);
  }

  /** `{ kind: 'request', name: 'PATCH /api/documents/42' }`: the method and path without the query string. */
  get via(): Via {
    if (this.#via === undefined && this.#internal !== undefined) this.#via = this.#internal.via;
    if (this.#via === undefined) {
      const url = this.request.url;
      const q = url.indexOf('?');
      this.#via = { kind: 'request', name: `${this.request.method} ${q === -1 ? url : url.slice(0, q)}` };
    }
    return this.#via;
  }

  /** What the request's code reports to the app's observability, when it is observed (docs/observability.md). */
  get telemetry(): WorkTelemetry | undefined {
    return observationOf(this.request)?.work;
  }

  /** The client's IP address (Fastify's `request.ip`). */
  get ip(): string {
    return this.request.ip;
  }

  /**
   * The request's session (runtime/session; docs/sessions.md).
   * @throws {BinderyError} `BINDERY_SESSION_NOT_STARTED` on a route without the `session` middleware.
   */
  get session(): Session {
    const session = this.sessionState;
    if (session === undefined) {
      throw new BinderyError(
        'BINDERY_SESSION_NOT_STARTED',
        `Route "${this.route.name}" used ctx.session, but its middleware does not include "session"; add it to the route's group in schema/*.yaml (middleware: [session, csrf]) and session() to the setup list of app/main.ts.`,
      );
    }
    return session;
  }

  /** The request's locale (docs/i18n.md "The locale of a request"); `en` without `i18n()`. */
  get locale(): string {
    return requestLocale(this.request, this.reply, this.sessionState) ?? 'en';
  }

  /**
   * The message `key` in the request's locale (docs/i18n.md).
   * @throws {BinderyError} `BINDERY_SERVICE_NOT_SET_UP` without `i18n()`.
   */
  t(key: string, values?: MessageValues): string {
    const i18n = i18nOf(this.request);
    if (i18n === undefined) {
      throw new BinderyError(
        'BINDERY_SERVICE_NOT_SET_UP',
        'ctx.t needs i18n() set up: add i18n() to the setup list of app/main.ts (docs/i18n.md).',
      );
    }
    return i18n.t(this.locale, key, values);
  }

  get client(): ClientKind {
    return (this.#client ??= decideClientKind(this.request.headers));
  }

  url(route: string, params?: Readonly<Record<string, string | number>>): string {
    return this.#urls.build(route, params);
  }

  /** See `ctx.can` (runtime/http/policy-context.ts; docs/authorization.md). */
  async can(action: string, row?: unknown): Promise<boolean> {
    return (await this.#policies('ctx.can').decide(this.auth, action, row as Row | undefined)).allowed;
  }

  /** See `ctx.authorize` (runtime/http/policy-context.ts). */
  authorize(action: string, row?: unknown): Promise<void> {
    return authorizeRequest(this, this.#policies('ctx.authorize'), action, row as Row | undefined, this.route.name);
  }

  /** See `ctx.scope` (runtime/http/policy-context.ts). */
  scope(action: string): Promise<RowScope> {
    return this.#policies('ctx.scope').scope(this.auth, action);
  }

  /**
   * The condition the policy of `table` puts on the rows a bulk write of
   * `action` touches (ExecutionContext.policyScope; docs/authorization.md
   * "Bulk writes"): undefined when no policy covers the table; no row when
   * the policy does not declare the action (`forceDelete` falls back to `delete`).
   */
  async policyScope(table: string, action: string): Promise<RowScope | undefined> {
    const policies = (this.services as { policies?: Policies }).policies;
    const policy = policies?.policyOfTable(table);
    if (policies === undefined || policy === undefined) return undefined;
    let name = `${policy}.${action}`;
    if (action === 'forceDelete' && !policies.has(name)) name = `${policy}.delete`;
    return policies.has(name) ? policies.scope(this.auth, name) : NO_ROWS;
  }

  #policies(use: string): Policies {
    const policies = (this.services as { policies?: Policies }).policies;
    if (policies === undefined) {
      throw new BinderyError(
        'BINDERY_SERVICE_NOT_SET_UP',
        `${use} needs the app's policies: add authorization({ policies }) (policies from generated/policies.ts) to the setup list of app/main.ts.`,
      );
    }
    return policies;
  }
}
