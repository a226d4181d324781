/**
 * Observing requests (docs/observability.md): the hooks the HTTP server
 * offers to the `observability()` setup step — a trace span per request,
 * the request metrics, the access log and the development dashboard all
 * hang on them.
 *
 * A server built without an observer adds no hook, no listener and no
 * per-request object: the request path is the one it always was. With one,
 * the server calls it as each request arrives (`observe`, Fastify's
 * `onRequest`, before the body is read) and keeps the returned
 * {@link RequestObservation} on the request; the pipeline, the error
 * responder and the request logger report to it; the response's `close`
 * event (sent, or the connection gone) closes it.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WorkTelemetry } from '../context/work-telemetry.js';
import type { RouteDefinition, RouteTable } from '../routing/route-table.js';
import type { RequestContext } from './context.js';

/**
 * The stages of a route's pipeline an observation can time: binding, the
 * route's policy and validation (routes with input or a policy), the
 * handler (every route), rendering (pages and list pages).
 */
export type PipelineStage = 'validate' | 'handler' | 'render';

/** What observes the requests of a server. */
export interface RequestObserver {
  /**
   * A request arrived (its route matched, its body not read yet).
   * @param route the bindery route it matched, or `null` (no route: 404/405; the health probes).
   * @returns the request's observation, or `undefined` to leave this request alone.
   */
  observe(request: FastifyRequest, route: RouteDefinition | null): RequestObservation | undefined;
  /**
   * Time the pipeline's stages ({@link PipelineStage}) of observed requests.
   * When false the pipeline is compiled exactly as without an observer.
   */
  readonly stages: boolean;
}

/** One observed request. Its methods never throw. */
export interface RequestObservation {
  /** What the code this request runs reports to (the execution context's `telemetry`), if anything. */
  readonly work: WorkTelemetry | undefined;
  /**
   * The route's pipeline starts for this request: `run` is the rest of it
   * (middleware, binding, handler, result), run inside the request's trace.
   * @returns what `run` returns.
   */
  enter<T>(ctx: RequestContext, run: () => T): T;
  /**
   * Run one stage of the pipeline.
   * @returns what `run` returns (a promise is followed until it settles); throws what it throws.
   */
  stage<T>(stage: PipelineStage, run: () => T): T;
  /** An error is answered for this request (any status; the pipeline, a body parser, a 404). */
  failed(error: Error, status: number): void;
  /**
   * The response is sent, or the client went away before it was (`aborted`;
   * the status is then 499, nothing is written). Called once.
   */
  finished(status: number, aborted: boolean): void;
  /** Fields the request's log lines carry (`trace_id`, `span_id`), or `undefined`. */
  logFields(): Readonly<Record<string, string>> | undefined;
}

/** The status logged for a request whose client went away before the response (nginx's convention; docs/spec.md 7). */
const CLIENT_CLOSED_REQUEST = 499;

const OBSERVATION: unique symbol = Symbol('bindery.observation');
type Observed = { [OBSERVATION]?: RequestObservation };

/** The observation of `request`, or `undefined` when it is not observed (always, on a server without observer). */
export function observationOf(request: FastifyRequest): RequestObservation | undefined {
  return (request as unknown as Observed)[OBSERVATION];
}

/**
 * Add the hook that feeds `observer` to `app` (call it before the routes are added).
 * @param routes the route table, to hand each request its route.
 */
export function observeRequests(app: FastifyInstance, observer: RequestObserver, routes: RouteTable): void {
  const byName = new Map<string, RouteDefinition>(routes.map((r) => [r.name, r]));
  // Declared up front, so that every request object keeps one shape (no hidden-class change per request).
  app.decorateRequest(OBSERVATION as unknown as string, undefined);
  app.addHook('onRequest', function observeRequest(request, reply, done) {
    const name = (request.routeOptions.config as { bindery?: string } | undefined)?.bindery;
    const observation = observer.observe(request, name === undefined ? null : (byName.get(name) ?? null));
    if (observation !== undefined) {
      (request as unknown as Observed)[OBSERVATION] = observation;
      // One listener, whatever happens: `close` follows `finish`, or comes alone when the client went away first.
      // A response closes once: `on`, not `once` (no wrapper to make per request), and a second `close` would find the slot empty.
      const res = reply.raw;
      res.on('close', () => {
        if ((request as unknown as Observed)[OBSERVATION] === undefined) return;
        (request as unknown as Observed)[OBSERVATION] = undefined;
        const sent = res.writableFinished;
        observation.finished(sent ? res.statusCode : CLIENT_CLOSED_REQUEST, !sent);
      });
    }
    done();
  });
}
