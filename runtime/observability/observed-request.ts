/**
 * One observed request (docs/observability.md): its server span, its
 * duration and in-flight count, its dashboard record and its access log
 * line — whichever of them are on.
 *
 * The span follows the OpenTelemetry HTTP server conventions: named
 * `POST /notes/{id}` (the method and the route's path pattern; the method
 * alone when no route matched), kind SERVER, continuing the client's W3C
 * `traceparent` when it sent a well-formed one (a malformed one is ignored:
 * a new trace), marked as an error for 5xx answers.
 */
import { type Span, SpanKind, type SpanOptions, SpanStatusCode } from '@opentelemetry/api';
import type { FastifyRequest } from 'fastify';
import type { RequestContext } from '../http/context.js';
import type { PipelineStage, RequestObservation } from '../http/request-observer.js';
import type { RouteDefinition } from '../routing/route-table.js';
import { newWork, type RequestRecord } from './dashboard/records.js';
import type { TelemetryParts } from './telemetry-parts.js';
import { errorType, WorkScope } from './work-scope.js';

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH']);
const STAGE_NAMES: Readonly<Record<PipelineStage, string>> = { validate: 'bind and validate', handler: 'handler', render: 'render' };
/** The options of each stage's span: made once (the SDK copies the attributes into each span). */
const STAGE_OPTIONS: Readonly<Record<PipelineStage, SpanOptions>> = {
  validate: { kind: SpanKind.INTERNAL, attributes: { 'bindery.stage': 'validate' } },
  handler: { kind: SpanKind.INTERNAL, attributes: { 'bindery.stage': 'handler' } },
  render: { kind: SpanKind.INTERNAL, attributes: { 'bindery.stage': 'render' } },
};

/** What a route's request spans share, made on its first traced request: the span name and the route's attributes. */
interface RouteSpan {
  readonly method: string;
  readonly name: string;
  /** `http.route` and `bindery.route`. */
  readonly path: string;
  readonly routeName: string;
}
const routeSpans = new WeakMap<RouteDefinition, RouteSpan>();

/** The span name and route attributes of a request for `route` with `method` (a HEAD on a GET route gets its own). */
function routeSpan(method: string, route: RouteDefinition): RouteSpan {
  const known = routeSpans.get(route);
  if (known !== undefined && known.method === method) return known;
  const made: RouteSpan = {
    method,
    name: `${method} ${route.path}`,
    path: route.path,
    routeName: route.name,
  };
  if (known === undefined || method === route.method) routeSpans.set(route, made);
  return made;
}

const SERVER: SpanOptions = { kind: SpanKind.SERVER };

/** See the module doc. */
export class ObservedRequest implements RequestObservation {
  readonly work: WorkScope | undefined;
  readonly #parts: TelemetryParts;
  readonly #request: FastifyRequest;
  readonly #route: RouteDefinition | null;
  readonly #started: number;
  readonly #span: Span | null;
  /** The trace ID, when the request's span is recorded (sampled). */
  readonly #traceId: string | undefined;
  readonly #record: RequestRecord | null;
  #ctx: RequestContext | undefined;
  #error: { readonly error: Error; readonly status: number } | undefined;

  /** @param route the bindery route it matched, or `null` (404/405). */
  constructor(parts: TelemetryParts, request: FastifyRequest, route: RouteDefinition | null) {
    this.#started = performance.now();
    this.#parts = parts;
    this.#request = request;
    this.#route = route;
    const method = request.method;
    parts.metrics?.requestStarted(method);
    const tracer = parts.tools.tracer;
    let span: Span | null = null;
    if (tracer !== null) {
      const shared = route === null ? null : routeSpan(method, route);
      span = tracer.startSpan(shared === null ? method : shared.name, SERVER, parts.tools.traceContext!.contextOf(request.headers));
      // Attributes only for a span that is kept (sampled).
      if (span.isRecording()) setRequestAttributes(span, request, shared);
    }
    this.#span = span;
    const traceId = this.#span?.isRecording() ? this.#span.spanContext().traceId : undefined;
    this.#traceId = traceId;
    this.#record =
      parts.recorder !== null
        ? {
            ...newWork(request.id, traceId),
            kind: 'request',
            method,
            path: pathOf(request.url),
            route: route === null ? null : { path: route.path, name: route.name },
            status: undefined,
            userId: null,
          }
        : null;
    if (this.#record !== null) parts.recorder!.addRequest(this.#record);
    // A request whose span is not recorded (not sampled) and that has no record reports nothing: no scope to make.
    this.work =
      traceId !== undefined || this.#record !== null ? new WorkScope(parts.tools, this.#span, this.#record, this.#started) : undefined;
  }

  enter<T>(ctx: RequestContext, run: () => T): T {
    this.#ctx = ctx;
    return this.work === undefined ? run() : this.work.enter(run);
  }

  stage<T>(stage: PipelineStage, run: () => T): T {
    return this.work === undefined ? run() : this.work.stage(STAGE_NAMES[stage], STAGE_OPTIONS[stage], run);
  }

  failed(error: Error, status: number): void {
    this.#error = { error, status };
    const code = (error as { code?: unknown }).code;
    this.#record?.errors.push({
      status,
      code: typeof code === 'string' ? code : undefined,
      message: error.message,
      stack: status >= 500 ? error.stack : undefined,
    });
    if (this.#span !== null && status >= 500) this.#span.recordException(error);
  }

  finished(status: number, aborted: boolean): void {
    const ms = performance.now() - this.#started;
    const method = this.#request.method;
    this.#parts.metrics?.requestFinished(method, this.#route?.path, status, ms / 1000);
    const userId = this.#userId();
    const span = this.#span;
    if (span !== null) {
      span.setAttribute('http.response.status_code', status);
      if (status >= 500) {
        span.setStatus({ code: SpanStatusCode.ERROR });
        span.setAttribute('error.type', this.#error === undefined ? String(status) : errorType(this.#error.error));
      }
      if (aborted) span.setAttribute('bindery.client_gone', true);
      span.end();
    }
    const record = this.#record;
    if (record !== null) {
      record.status = status;
      record.durationMs = ms;
      record.userId = userId;
    }
    this.#parts.accessLog?.info(
      {
        method,
        path: pathOf(this.#request.url),
        route: this.#route?.path ?? null,
        route_name: this.#route?.name ?? null,
        status,
        duration_ms: Math.round(ms * 100) / 100,
        request_id: this.#request.id,
        trace_id: this.#traceId ?? null,
        user_id: userId,
      },
      `${method} ${this.#route?.path ?? pathOf(this.#request.url)} ${status} ${ms.toFixed(1)} ms`,
    );
  }

  logFields(): Readonly<Record<string, string>> | undefined {
    if (this.#traceId === undefined) return undefined;
    return { trace_id: this.#traceId, span_id: this.#span!.spanContext().spanId };
  }

  /** The signed-in user's ID, when the request got as far as its auth middleware. */
  #userId(): string | null {
    const auth = (this.#ctx as { auth?: { id?: string | null } } | undefined)?.auth;
    return auth?.id ?? null;
  }
}

/** The path of a request URL, without the query string (which may carry secrets: tokens in links). */
function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/**
 * Set the span attributes known when the request arrives (OpenTelemetry HTTP server conventions),
 * one by one: no attribute object is made per request for the SDK to copy.
 */
function setRequestAttributes(span: Span, request: FastifyRequest, route: RouteSpan | null): void {
  if (route !== null) {
    span.setAttribute('http.route', route.path);
    span.setAttribute('bindery.route', route.routeName);
  }
  const method = request.method;
  if (KNOWN_METHODS.has(method)) span.setAttribute('http.request.method', method);
  else {
    span.setAttribute('http.request.method', '_OTHER');
    span.setAttribute('http.request.method_original', method);
  }
  span.setAttribute('url.path', pathOf(request.url));
  span.setAttribute('url.scheme', request.protocol);
  const server = serverOf(request.headers.host);
  if (server !== undefined) {
    span.setAttribute('server.address', server.address);
    if (server.port !== undefined) span.setAttribute('server.port', server.port);
  }
  span.setAttribute('client.address', request.ip);
  const agent = request.headers['user-agent'];
  if (agent !== undefined) span.setAttribute('user_agent.original', agent);
  span.setAttribute('bindery.request_id', request.id);
}

const servers = new Map<string, { readonly address: string; readonly port: number | undefined } | null>();

/** `server.address` and `server.port` of a `Host` header (the same few come back: kept, at most a hundred). */
function serverOf(host: string | undefined): { readonly address: string; readonly port: number | undefined } | undefined {
  if (host === undefined || host === '') return undefined;
  let server = servers.get(host);
  if (server === undefined) {
    const m = /^(\[[^\]]*\]|[^:]*)(?::(\d+))?$/.exec(host);
    server = m === null ? null : { address: m[1]!.replace(/^\[|\]$/g, ''), port: m[2] === undefined ? undefined : Number(m[2]) };
    if (servers.size >= 100) servers.clear();
    servers.set(host, server);
  }
  return server ?? undefined;
}
