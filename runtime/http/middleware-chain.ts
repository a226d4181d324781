/**
 * The middleware onion (DESIGN.md 4; `Middleware` in handler.ts).
 */
import type { RequestContext } from './context.js';
import type { Middleware } from './handler.js';

/** The rest of the pipeline after the middleware: binding, validation, handler. */
export type Core<C extends RequestContext> = (ctx: C) => Promise<unknown>;

/**
 * Compose `middleware` around `core`, koa-style: each middleware gets `next`
 * running the rest and resolving to its result; what the outermost
 * middleware returns is the request's result. A middleware may return a
 * result without calling `next` (short-circuit), transform the result, or
 * catch what `next` throws. Calling `next` twice rejects.
 * Built once per route; per request it creates one `next` function per middleware.
 */
export function composeMiddleware<C extends RequestContext>(middleware: readonly Middleware[], core: Core<C>): Core<C> {
  const count = middleware.length;
  const step = (ctx: C, i: number): Promise<unknown> => {
    if (i === count) return core(ctx);
    let called = false;
    return middleware[i]!(ctx, () => {
      if (called) return Promise.reject(new Error(`Middleware #${i + 1} of route "${ctx.route.name}" called next() more than once.`));
      called = true;
      return step(ctx, i + 1);
    });
  };
  return (ctx) => step(ctx, 0);
}
