/**
 * The request pipeline of one route (docs/spec.md 4.5; ARCHITECTURE.md "Request flow"):
 * middleware → list parameters (422) → binder (400) → the route's policy (401/403/404,
 * docs/authorization.md) → rules (422) → the handler's own `validate`
 * → handler → result → response, with errors rendered per docs/spec.md 7, the
 * request timeout (503), and 499 for clients that went away.
 *
 * Everything that can be decided per route is decided at boot: the binder,
 * the rule validator (absent when the route has no rules), the handler and
 * its `validate`, the middleware chain (absent when the route has none).
 * Per request: the standard headers, one context object, its place in the
 * timeout list, and the handler's own work; a synchronous `validate` or
 * handler is not awaited. An input that fails its rules is answered without
 * a `throw` where the route has only `before` middleware (its failure is
 * returned through the stages as a {@link Failed}); with `around`
 * middleware, which may catch it, it is thrown. A server with a request observer
 * (request-observer.ts) also hands each observed request to its
 * observation, stage by stage; without one, none of that is compiled in.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RouteDefinition } from '../routing/route-table.js';
import { compileBinder } from '../binding/binder.js';
import { compileListParamCheck } from '../validation/list-params.js';
import { loadIncludes, outputRows } from '../results/includes.js';
import { isStreamResult, mapBatches } from '../results/result.js';
import { HttpError } from '../errors/http-error.js';
import { formatDuration } from '../support/duration.js';
import { sendResult, type ResponderEnv } from '../results/responder.js';
import type { UrlBuilder } from '../results/url-builder.js';
import { compileInputCheck } from '../validation/input-validator.js';
import type { ValidationError } from '../errors/validation-error.js';
import type { Services } from './context.js';
import type { Deadlines } from './deadlines.js';
import { sendError } from './error-response.js';
import type { Middleware } from './handler.js';
import { composeMiddleware, isThenable } from './middleware-chain.js';
import { KEEP_ERROR } from './outcome-hook.js';
import { HttpRequestContext } from './request-context.js';
import { runInContext } from '../context/execution-context.js';
import type { StandardHeaders } from './security-headers.js';
import type { AnyRouteHandler } from './handler.js';
import type { AnyKysely } from '../db/any-kysely.js';
import { compileAuthorizationStage, includeScopes, withViewableOutput, type AnyHandle } from './route-authorization.js';
import { MultipartBody } from '../binding/multipart.js';
import { Storage } from '../storage/storage.js';
import { observationOf, type RequestObserver } from './request-observer.js';
import type { I18n } from '../i18n/translator.js';
import { noteUserLocale } from '../i18n/request-locale.js';
import { localizeError } from './request-i18n.js';

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
  /** What observes the requests (see {@link HttpServerOptions.observer}), or `null`. */
  readonly observer: RequestObserver | null;
  /** The app's translations (`i18n()`), or `undefined`: the signed-in user's locale is then never loaded (docs/i18n.md). */
  readonly i18n?: I18n | undefined;
}

/** A failure returned through the stages instead of thrown (see the module comment). */
class Failed {
  constructor(readonly error: ValidationError) {}
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
  const error = new HttpError(
    'BINDERY_REQUEST_TIMEOUT',
    `The request took longer than ${formatDuration(timeoutMs)} (HTTP_REQUEST_TIMEOUT).`,
  );
  sendError(ctx.request, ctx.reply, error, debug, ctx.route, ctx.client);
}

/**
 * Compile the Fastify handler of `route`.
 * @param middleware the route's middleware, resolved, in order (empty: no chain at all).
 * @throws {BinderyError} `BINDERY_ROUTE_INVALID` from the binder or validator compilation.
 */
export function compileRoutePipeline(
  route: RouteDefinition,
  handler: AnyRouteHandler,
  middleware: readonly Middleware[],
  env: PipelineEnv,
): FastifyRouteHandler {
  const { headers, services, urls, deadlines, executionContext, observer } = env;
  // Without `around` middleware nothing between the stages catches errors: a failure may be returned.
  const returnFailures = middleware.every((m) => typeof m !== 'function');
  const core = withUserLocale(compileCore(route, handler, env, returnFailures), env.i18n);
  const stages = middleware.length === 0 ? core : composeMiddleware(middleware, core);
  const settle = compileSettle(route, env);

  const run = (ctx: HttpRequestContext): void => {
    if (deadlines !== null) deadlines.track(ctx);
    let value: unknown;
    try {
      value = stages(ctx);
    } catch (err) {
      settle(ctx, true, err);
      return;
    }
    if (isThenable(value))
      Promise.resolve(value).then(
        (v) => (v instanceof Failed ? settle(ctx, true, v.error) : settle(ctx, false, v)),
        (err: unknown) => settle(ctx, true, err),
      );
    else if (value instanceof Failed) settle(ctx, true, value.error);
    else settle(ctx, false, value);
  };

  if (observer === null)
    return function routeHandler(request: FastifyRequest, reply: FastifyReply): void {
      headers.apply(reply);
      const ctx = new HttpRequestContext(request, reply, route, services, urls);
      // The context is also the execution context (actor, via, request ID) that
      // the audit log and queued jobs read (runtime/context).
      if (executionContext) runInContext(ctx, run, ctx);
      else run(ctx);
    };
  const start = (ctx: HttpRequestContext): void => {
    if (executionContext) runInContext(ctx, run, ctx);
    else run(ctx);
  };
  return function observedRouteHandler(request: FastifyRequest, reply: FastifyReply): void {
    headers.apply(reply);
    const ctx = new HttpRequestContext(request, reply, route, services, urls);
    const observation = observationOf(request);
    if (observation === undefined) start(ctx);
    else observation.enter(ctx, () => start(ctx));
  };
}

/**
 * With `i18n()`, the route's own stages after the signed-in user's `locale`
 * column is noted (docs/i18n.md "The locale of a request"): the user is
 * loaded once (`ctx.auth.user()` keeps it for the handler). Guests pay nothing.
 */
function withUserLocale(core: (ctx: HttpRequestContext) => unknown, i18n: I18n | undefined): (ctx: HttpRequestContext) => unknown {
  if (i18n === undefined) return core;
  return (ctx) => {
    if (!ctx.auth.signedIn) return core(ctx);
    return ctx.auth.user().then(
      (user) => {
        const locale = (user as { locale?: unknown } | null)?.locale;
        noteUserLocale(ctx.request, typeof locale === 'string' ? locale : null);
        return core(ctx);
      },
      // The handler meets the failure again when it asks for the user.
      () => core(ctx),
    );
  };
}

/**
 * The route's own stages, after its middleware: list parameters, binding, the policy, rules, the
 * handler's `validate`, the handler. Observed servers time them as stages.
 * @param returnFailures return an input's rule failure as a {@link Failed} instead of throwing it.
 */
function compileCore(
  route: RouteDefinition,
  handler: AnyRouteHandler,
  env: PipelineEnv,
  returnFailures: boolean,
): (ctx: HttpRequestContext) => unknown {
  const { services, observer } = env;
  const bind = compileBinder(route);
  const checkList = compileListParamCheck(route);
  const authorize = compileAuthorizationStage(route, services);
  const checkInput = compileInputCheck(route);
  const handle = withFileUrls(
    route,
    withIncludes(route, withViewableOutput(route, services, typeof handler === 'function' ? handler : handler.handle)),
  );
  const extra = typeof handler === 'function' ? undefined : handler.validate;

  // The rules: `undefined` when they pass, else the failure returned (a Failed) or thrown.
  const checkRules = (ctx: HttpRequestContext, input: Record<string, unknown>): Failed | undefined => {
    const invalid = checkInput === null ? undefined : checkInput(input, ctx.request);
    if (invalid === undefined) return undefined;
    if (returnFailures) return new Failed(invalid);
    throw invalid;
  };
  // Rules, the handler's own validate, the handler, given the route's
  // target row (docs/authorization.md): synchronous unless one of them
  // returns a promise (then the rest follows it).
  const checked = (ctx: HttpRequestContext, input: Record<string, unknown>, target: unknown): unknown => {
    const failed = checkRules(ctx, input);
    if (failed !== undefined) return failed;
    if (extra !== undefined) {
      const done = extra(input, ctx, target);
      if (done !== undefined && isThenable(done)) return Promise.resolve(done).then(() => handle(input, ctx, target));
    }
    return handle(input, ctx, target);
  };
  // Binding, then the route's policy (its row loaded and checked), then the rest.
  const plainCore = (ctx: HttpRequestContext): unknown => {
    if (checkList !== null) checkList(ctx.request);
    const input = bind(ctx.request);
    if (authorize === null) return checked(ctx, input, undefined);
    return authorize(ctx, input).then((target) => checked(ctx, input, target));
  };
  // Observed: binding, the policy and validation as one stage (when there is
  // input to bind or check, or a policy), the handler as the next; pages and
  // list pages also time their rendering. Decided here, per route, so a
  // request pays only for what its route has.
  const observeStages = observer?.stages === true;
  const timeValidate = checkList !== null || route.fields.length > 0 || extra !== undefined || authorize !== null;
  // The rules and the handler's own validate alone (observed requests time them apart from the handler).
  const validate = (ctx: HttpRequestContext, input: Record<string, unknown>, target: unknown): unknown => {
    const failed = checkRules(ctx, input);
    if (failed !== undefined) return failed;
    if (extra === undefined) return undefined;
    const done = extra(input, ctx, target);
    return done !== undefined && isThenable(done) ? done : undefined;
  };
  const observedCore = (ctx: HttpRequestContext): unknown => {
    const observation = observationOf(ctx.request);
    if (observation === undefined) return plainCore(ctx);
    if (!timeValidate) return observation.stage('handler', () => plainCore(ctx));
    let input: Record<string, unknown> = {};
    let target: unknown;
    const ready = observation.stage('validate', () => {
      if (checkList !== null) checkList(ctx.request);
      input = bind(ctx.request);
      if (authorize === null) return validate(ctx, input, undefined);
      return authorize(ctx, input).then((row) => {
        target = row;
        return validate(ctx, input, row);
      });
    });
    if (ready instanceof Failed) return ready;
    if (ready !== undefined && isThenable(ready))
      return Promise.resolve(ready).then((v) => (v instanceof Failed ? v : observation.stage('handler', () => handle(input, ctx, target))));
    return observation.stage('handler', () => handle(input, ctx, target));
  };
  return observeStages ? observedCore : plainCore;
}

/**
 * Settling a request: the middleware's outcome hook, then writing the result or rendering the error.
 * The returned function never throws.
 */
function compileSettle(route: RouteDefinition, env: PipelineEnv): (ctx: HttpRequestContext, failed: boolean, value: unknown) => void {
  const { debug, deadlines, observer } = env;
  // Pages and list pages of observed servers time their rendering.
  const timeRender = observer?.stages === true && (route.result === 'page' || route.list !== undefined);
  const writeObserved = (ctx: HttpRequestContext, value: unknown): Promise<void> | undefined => {
    const observation = observationOf(ctx.request);
    return observation === undefined ? sendResult(ctx, env, value) : observation.stage('render', () => sendResult(ctx, env, value));
  };

  // Write the outcome: the result, or the error rendered. Never throws.
  const finish = (ctx: HttpRequestContext, failed: boolean, value: unknown): void => {
    if (deadlines !== null) deadlines.untrack(ctx);
    // Uploads no row took are removed once the handler is done (docs/storage.md "Uploads").
    const body = ctx.request.body;
    if (body instanceof MultipartBody) void body.release();
    if (ctx.settled) {
      ctx.log.warn(
        { code: 'BINDERY_REQUEST_TIMEOUT', ...(failed ? { err: value } : {}) },
        `route "${route.name}" finished after the request timed out; its ${failed ? 'error' : 'result'} was dropped`,
      );
      return;
    }
    ctx.settled = true;
    if (!failed) {
      try {
        const pending = timeRender ? writeObserved(ctx, value) : sendResult(ctx, env, value);
        if (pending !== undefined)
          pending.then(undefined, (err: unknown) => sendError(ctx.request, ctx.reply, err, debug, route, ctx.client));
        return;
      } catch (err) {
        value = err;
      }
    }
    sendError(ctx.request, ctx.reply, value, debug, route, ctx.client);
  };

  // A middleware's look at the outcome before it is written (the session:
  // cookie, form round trip); see outcome-hook.ts.
  const settle = (ctx: HttpRequestContext, failed: boolean, value: unknown): void => {
    // Field errors in the request's locale before the session flashes them (docs/i18n.md "Errors").
    if (failed && env.i18n !== undefined) localizeError(ctx.request, ctx.reply, value, ctx.sessionState);
    const hook = ctx.outcomeHook;
    if (hook === undefined) {
      finish(ctx, failed, value);
      return;
    }
    let outcome: unknown;
    try {
      outcome = failed ? hook.onError(ctx, value) : hook.onResult(ctx, value);
    } catch (err) {
      finish(ctx, true, err);
      return;
    }
    if (isThenable(outcome))
      Promise.resolve(outcome).then(
        (v) => (v === KEEP_ERROR ? finish(ctx, true, value) : finish(ctx, false, v)),
        (err: unknown) => finish(ctx, true, err),
      );
    else if (outcome === KEEP_ERROR) finish(ctx, true, value);
    else finish(ctx, false, outcome);
  };

  return settle;
}

/**
 * The handler of a route with `include:` that is not a list route (whose
 * page reads its relations itself): its output rows get their related rows,
 * one query per relation, before they are serialized (a streamed answer's
 * rows batch by batch).
 */
function withIncludes(route: RouteDefinition, handle: AnyHandle): AnyHandle {
  const include = route.include;
  if (include === undefined || include.length === 0 || route.list !== undefined) return handle;
  return async (input, ctx: HttpRequestContext, target) => {
    const value = await handle(input, ctx, target);
    const db = (ctx.services as unknown as { db: AnyKysely }).db;
    // A streamed answer: each batch, as it is read.
    if (isStreamResult(value))
      return mapBatches(value, async (batch) => {
        const rows = outputRows(batch);
        if (rows.length > 0) await loadIncludes(db, include, rows, includeScopes(ctx), ctx.auth.id);
        return batch;
      });
    const rows = outputRows(value);
    if (rows.length > 0) await loadIncludes(db, include, rows, includeScopes(ctx), ctx.auth.id);
    return value;
  };
}

/**
 * The handler of a route whose output rows (or included rows) have `type:
 * file` columns: each file reference gets its signed URL before the rows
 * are serialized (docs/storage.md "Files of rows"), when the `storage()`
 * step is set up (a streamed answer's rows batch by batch).
 */
function withFileUrls(route: RouteDefinition, handle: AnyHandle): AnyHandle {
  const own = route.output?.files ?? [];
  const related = (route.include ?? []).filter((i) => i.files !== undefined && i.files.length > 0);
  if (own.length === 0 && related.length === 0) return handle;
  const sign = async (storage: Storage, rows: Record<string, unknown>[]): Promise<void> => {
    if (own.length > 0) await storage.signRows(rows, own);
    for (const inc of related)
      await storage.signRows(
        rows
          .flatMap((r) => (Array.isArray(r[inc.name]) ? (r[inc.name] as unknown[]) : [r[inc.name]]))
          .filter((r): r is object => r !== null && typeof r === 'object'),
        inc.files!,
      );
  };
  return async (input, ctx: HttpRequestContext, target) => {
    const value = await handle(input, ctx, target);
    const storage = (ctx.services as { storage?: unknown }).storage;
    if (!(storage instanceof Storage)) return value;
    // A streamed answer: each batch, as it is read.
    if (isStreamResult(value))
      return mapBatches(value, async (batch) => {
        await sign(storage, outputRows(batch));
        return batch;
      });
    let rows = outputRows(value);
    if (route.list !== undefined) rows = rows.flatMap((page) => (Array.isArray(page.data) ? (page.data as Record<string, unknown>[]) : []));
    await sign(storage, rows);
    return value;
  };
}
