/**
 * Handler and middleware types (SPEC.md 4.5; DESIGN.md 4).
 *
 * The generated `generated/handlers.ts` declares one {@link RouteHandler} per
 * route, so a missing or mistyped handler in `app/` fails `tsc`.
 */
import type { RequestContext } from './context.js';

/** The handler function: typed input in, result out (see `runtime/results/result.ts`). */
export type HandlerFn<I, R> = (input: I, ctx: RequestContext) => R | Promise<R>;

/**
 * A route handler: a bare function, or an object with the function and the
 * input's own extra validation.
 *
 * `validate` runs only after the field rules passed (SPEC 4.5, binding step
 * 5). It throws a `ValidationError` for field failures (422), an error that
 * carries an HTTP status (kept), or anything else (500).
 */
export type RouteHandler<I, R> =
  | HandlerFn<I, R>
  | {
      readonly validate?: (input: I, ctx: RequestContext) => void | Promise<void>;
      readonly handle: HandlerFn<I, R>;
    };

/**
 * A middleware: runs around the rest of the pipeline (binding, validation,
 * handler) and may short-circuit by returning a result without calling
 * `next`, transform the result, or catch an error thrown by `next`.
 * The result is not yet written when `next` resolves, so a middleware may
 * still set headers or cookies.
 */
export type Middleware = (ctx: RequestContext, next: () => Promise<unknown>) => Promise<unknown>;
