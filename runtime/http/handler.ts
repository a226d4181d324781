/**
 * Handler and middleware types (docs/spec.md 4.5; ARCHITECTURE.md "Request flow").
 *
 * The generated `generated/handlers.ts` declares one {@link RouteHandler} per
 * route, so a missing or mistyped handler in `app/` fails `tsc`.
 */
import type { RequestContext, Services } from './context.js';
import type { FastifyRequest } from 'fastify';
import type { RouteDefinition } from '../routing/route-table.js';

/**
 * A header-only check of a middleware: `undefined` to go on, a path to
 * answer 303 See Other to it (a guest's page request sent to log in), or a
 * throw to answer with that error (a 403, a 401). It must not read the body.
 * It may return a promise (a credential check that counts failures in the
 * cache); synchronous checks cost no promise. `services` are the app's.
 */
export type BeforeBodyCheck = (
  request: FastifyRequest,
  route: RouteDefinition,
  services: Services,
) => string | undefined | Promise<string | undefined>;

/**
 * The handler function: typed input in, result out (see `runtime/results/result.ts`).
 * A route whose policy names a row (`authorize:` with a target; docs/authorization.md)
 * gets that row, loaded and authorized, as `target`; other routes get `undefined`.
 */
export type HandlerFn<I, R, T = undefined> = (input: I, ctx: RequestContext, target: T) => R | Promise<R>;

/**
 * A route handler: a bare function, or an object with the function and the
 * input's own extra validation.
 *
 * `validate` runs only after the field rules passed (docs/spec.md 4.5, binding step
 * 5), and after the route's policy allowed the request. It throws a `ValidationError` for field failures (422), an error that
 * carries an HTTP status (kept), or anything else (500).
 */
export type RouteHandler<I, R, T = undefined> =
  | HandlerFn<I, R, T>
  | {
      readonly validate?: (input: I, ctx: RequestContext, target: T) => void | Promise<void>;
      readonly handle: HandlerFn<I, R, T>;
    };

/**
 * A middleware that wraps the rest of the pipeline (binding, validation,
 * handler), koa-style (it may carry a `beforeBody` check as a property, like
 * {@link BeforeMiddleware}): it may short-circuit by returning a result without
 * calling `next`, transform the result, or catch an error thrown by `next`.
 * The result is not yet written when `next` resolves, so a middleware may
 * still set headers or cookies. Costs a promise and a closure per request;
 * prefer {@link BeforeMiddleware} when nothing needs to run after `next`.
 */
export type AroundMiddleware = (ctx: RequestContext, next: () => Promise<unknown>) => Promise<unknown>;

/**
 * A middleware that runs before the rest of the pipeline (Fastify's
 * `preHandler` model): `before(ctx)` returns `undefined` to go on, any other
 * value to answer with it instead (a redirect, a 401 result…), or throws to
 * have the error rendered; it may return a promise of either. Synchronous
 * steps cost nothing beyond the call: no promise, no closure per request.
 * To act on the outcome (write a cookie, turn an error into a redirect), set
 * `ctx.outcomeHook` (runtime/http/outcome-hook.ts).
 *
 * @example
 *   const requireJson: BeforeMiddleware = {
 *     before: (ctx) => ctx.client.wantsJson ? undefined : text('JSON only', 406),
 *   };
 */
export interface BeforeMiddleware {
  readonly before: (ctx: RequestContext) => unknown;
  /**
   * Optional: the part of `before` that the request line and headers alone
   * decide, run before the body is read (runtime/http/before-body.ts), so a
   * request refused anyway never makes the server read a large body.
   */
  readonly beforeBody?: BeforeBodyCheck;
}

/** A middleware of either form; groups in the YAML name them (`middleware: [session, csrf]`). */
export type Middleware = AroundMiddleware | BeforeMiddleware;

/**
 * A handler of any route, as stored in a table of handlers keyed by route
 * name (the app's, a plugin's): each is called with the input its own route
 * bound and validated at run time.
 */
// biome-ignore lint/suspicious/noExplicitAny: a table mixes handlers of different input types; the input is contravariant, so only `any` (not `unknown` or `never`) admits every typed handler and still lets the pipeline call it.
export type AnyRouteHandler = RouteHandler<any, any, any>;
