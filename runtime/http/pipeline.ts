/**
 * The request pipeline of one route (SPEC.md 4.5; DESIGN.md 4):
 * middleware → binder (400) → rules (422) → the handler's own `validate`
 * → handler → result → response, with errors rendered per SPEC 7, the
 * request timeout (503), and 499 for clients that went away.
 *
 * Everything that can be decided per route is decided at boot: the binder,
 * the rule validator (absent when the route has no rules), the handler and
 * its `validate`, the middleware chain (absent when the route has none).
 * Per request: the standard headers, one context object, its place in the
 * timeout list, and the handler's own work; a synchronous `validate` or
 * handler is not awaited.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RouteDefinition } from '../routing/route-table.js';
import { compileBinder } from '../binding/binder.js';
import { HttpError } from '../errors/http-error.js';
import { formatDuration } from '../support/duration.js';
import { sendResult, type ResponderEnv } from '../results/responder.js';
import type { UrlBuilder } from '../results/url-builder.js';
import { compileInputValidator } from '../validation/input-validator.js';
import type { Services } from './context.js';
import type { Deadlines } from './deadlines.js';
import { sendError } from './error-response.js';
import type { Middleware, RouteHandler } from './handler.js';
import { composeMiddleware } from './middleware-chain.js';
import { HttpRequestContext } from './request-context.js';
import { runInContext } from '../context/execution-context.js';
import type { StandardHeaders } from './security-headers.js';

/** What every route pipeline of a server shares. */
export interface PipelineEnv extends ResponderEnv {
  readonly services: Services;
  readonly urls: UrlBuilder;
  readonly headers: StandardHeaders;
  readonly debug: boolean;
  /** Run each request inside its execution context (see {@link HttpServerOptions.executionContext}). */
  readonly executionContext: boolean;
  /** The request timeout list, or `null` when there is no timeout. */
  readonly deadlines: Deadlines<HttpRequestContext> | null;
}

/** A Fastify route handler (it answers through `reply` and returns nothing). */
export type FastifyRouteHandler = (request: FastifyRequest, reply: FastifyReply) => void;

/**
 * Answer a request whose handler ran past the timeout: 503 (problem details
 * or page). The handler's later outcome is dropped by the pipeline.
 * @param timeoutMs HTTP_REQUEST_TIMEOUT, named in the message.
 */
export function answerTimeout(ctx: HttpRequestContext, timeoutMs: number, debug: boolean): void {
  if (ctx.settled) return;
  ctx.settled = true;
  ctx.timedOut = true;
  const error = new HttpError(503, `The request took longer than ${formatDuration(timeoutMs)} (HTTP_REQUEST_TIMEOUT).`, { code: 'BINDERY_REQUEST_TIMEOUT' });
  sendError(ctx.request, ctx.reply, error, debug, ctx.route, ctx.client);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && (typeof value === 'object' || typeof value === 'function') && typeof (value as { then?: unknown }).then === 'function';
}

/**
 * Compile the Fastify handler of `route`.
 * @param middleware the route's middleware, resolved, in order (empty: no chain at all).
 * @throws {BinderyError} `BINDERY_ROUTE_INVALID` from the binder or validator compilation.
 */
export function compileRoutePipeline(route: RouteDefinition, handler: RouteHandler<any, any>, middleware: readonly Middleware[], env: PipelineEnv): FastifyRouteHandler {
  const bind = compileBinder(route);
  const validateInput = compileInputValidator(route);
  const handle = typeof handler === 'function' ? handler : handler.handle;
  const extra = typeof handler === 'function' ? undefined : handler.validate;
  const { headers, services, urls, debug, deadlines, executionContext } = env;

  // Inside a middleware chain: like the chain-less path below, a synchronous
  // `validate` or handler is not awaited (no extra promise turns per request).
  const core = (ctx: HttpRequestContext): Promise<unknown> => {
    try {
      const input = bind(ctx.request);
      if (validateInput !== null) validateInput(input, ctx.request);
      if (extra !== undefined) {
        const checked = extra(input, ctx);
        if (checked !== undefined) return Promise.resolve(checked).then(() => handle(input, ctx));
      }
      return Promise.resolve(handle(input, ctx));
    } catch (err) {
      return Promise.reject(err);
    }
  };
  const chain = middleware.length === 0 ? null : composeMiddleware(middleware, core);

  const run = async (ctx: HttpRequestContext): Promise<void> => {
    if (deadlines !== null) deadlines.track(ctx);
    let result: unknown;
    let failure: unknown;
    let failed = false;
    try {
      if (chain === null) {
        const input = bind(ctx.request);
        if (validateInput !== null) validateInput(input, ctx.request);
        if (extra !== undefined) {
          const checked = extra(input, ctx);
          if (checked !== undefined) await checked;
        }
        result = handle(input, ctx);
        if (isThenable(result)) result = await result;
      } else {
        result = await chain(ctx);
      }
    } catch (err) {
      failed = true;
      failure = err;
    }
    const hook = ctx.outcomeHook;
    if (hook !== undefined) {
      // A middleware's look at the outcome (the session: cookie, form round trip); see outcome-hook.ts.
      try {
        const outcome = failed ? hook.onError(ctx, failure) : hook.onResult(ctx, result);
        result = isThenable(outcome) ? await outcome : outcome;
        failed = false;
      } catch (err) {
        failed = true;
        failure = err;
      }
    }
    if (deadlines !== null) deadlines.untrack(ctx);
    if (ctx.settled) {
      ctx.log.warn({ code: 'BINDERY_REQUEST_TIMEOUT', ...(failed ? { err: failure } : {}) }, `route "${route.name}" finished after the request timed out; its ${failed ? 'error' : 'result'} was dropped`);
      return;
    }
    ctx.settled = true;
    if (!failed) {
      try {
        const pending = sendResult(ctx, env, result);
        if (pending !== undefined) await pending;
        return;
      } catch (err) {
        failure = err;
      }
    }
    sendError(ctx.request, ctx.reply, failure, debug, route, ctx.client);
  };

  return function routeHandler(request: FastifyRequest, reply: FastifyReply): void {
    headers.apply(reply);
    const ctx = new HttpRequestContext(request, reply, route, services, urls);
    // The context is also the execution context (actor, via, request ID) that
    // the audit log and queued jobs read (runtime/context).
    if (executionContext) void runInContext(ctx, run, ctx);
    else void run(ctx);
  };
}
