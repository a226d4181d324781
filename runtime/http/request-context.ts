/**
 * The per-request context handed to middleware and handlers (see context.ts).
 */
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { RouteDefinition } from '../routing/route-table.js';
import type { UrlBuilder } from '../results/url-builder.js';
import type { ClientKind, RequestContext, Services } from './context.js';
import { decideClientKind } from './client-kind.js';
import type { DeadlineEntry } from './deadlines.js';

/**
 * The runtime's {@link RequestContext}: one object per request, built
 * without closures; the client kind is decided on first use and kept.
 */
export class HttpRequestContext implements RequestContext, DeadlineEntry {
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  readonly route: RouteDefinition;
  readonly requestId: string;
  readonly log: FastifyBaseLogger;
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
  readonly #urls: UrlBuilder;
  #client: ClientKind | undefined;

  constructor(request: FastifyRequest, reply: FastifyReply, route: RouteDefinition, services: Services, urls: UrlBuilder) {
    this.request = request;
    this.reply = reply;
    this.route = route;
    this.requestId = request.id;
    this.log = request.log;
    this.services = services;
    this.#urls = urls;
  }

  get client(): ClientKind {
    return (this.#client ??= decideClientKind(this.request.headers));
  }

  url(route: string, params?: Readonly<Record<string, string | number>>): string {
    return this.#urls.build(route, params);
  }
}
