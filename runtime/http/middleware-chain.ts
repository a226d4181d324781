/**
 * The middleware stages of one route (ARCHITECTURE.md "Request flow"; `Middleware` in handler.ts).
 *
 * Compiled once per route into one function. `before` middleware add no
 * per-request allocation: their stage calls the hook and goes on
 * synchronously when it returns `undefined`. `around` middleware get a
 * `next` that resolves to the rest's result. A stage returns the result, or
 * a promise of it when some step was asynchronous — the pipeline stays
 * synchronous end to end for synchronous middleware and handlers.
 */
import type { RequestContext } from './context.js';
import type { Middleware } from './handler.js';

/** One stage: the rest of the pipeline from here; returns the result or a promise of it, or throws. */
export type Stage<C extends RequestContext> = (ctx: C) => unknown;

/** True for promises and other thenables. */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null && (typeof value === 'object' || typeof value === 'function') && typeof (value as { then?: unknown }).then === 'function'
  );
}

/**
 * Compose `middleware` (in order) around `core`.
 * An `around` middleware calling `next` twice gets a rejected promise.
 */
export function composeMiddleware<C extends RequestContext>(middleware: readonly Middleware[], core: Stage<C>): Stage<C> {
  let rest: Stage<C> = core;
  for (let i = middleware.length - 1; i >= 0; i--) {
    const m = middleware[i]!;
    const next = rest;
    if (typeof m === 'function') {
      rest = (ctx) => {
        let called = false;
        return m(ctx, () => {
          if (called) return Promise.reject(new Error(`Middleware #${i + 1} of route "${ctx.route.name}" called next() more than once.`));
          called = true;
          try {
            return Promise.resolve(next(ctx));
          } catch (err) {
            return Promise.reject(err);
          }
        });
      };
    } else {
      const before = m.before;
      rest = (ctx) => {
        const answer = before(ctx);
        if (answer === undefined) return next(ctx);
        if (isThenable(answer)) return Promise.resolve(answer).then((value) => (value === undefined ? next(ctx) : value));
        return answer;
      };
    }
  }
  return rest;
}
