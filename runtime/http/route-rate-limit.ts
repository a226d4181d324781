/**
 * The rate limit a route declares in its YAML (`rateLimit: "5/minute"`, on
 * the route or its group; docs/http.md "Rate limits"), as a middleware the
 * HTTP server puts in the route's chain.
 *
 * Counted per client in the cache (`ctx.services.cache`; the database driver
 * shares one count between every instance of the app): `by: ip` counts the
 * client address (`ctx.ip`, which follows `HTTP_TRUST_PROXY`) and runs first,
 * before the session is even loaded; `by: user` and `by: token` count the
 * signed-in user or the bearer token (the address of a guest) and run after
 * the route's other middleware, once the caller is known.
 */
import type { Cache } from '../cache/cache.js';
import { BinderyError } from '../errors/bindery-error.js';
import type { BeforeMiddleware, Middleware } from './handler.js';
import type { Services } from './context.js';
import type { RequestContext } from './context.js';
import type { RateLimitPlan, RouteDefinition } from '../routing/route-table.js';
import { formatDuration } from '../support/duration.js';
import { hitRateLimit, rateLimitedError, rateLimitHeaders, type RateLimit } from '../rate-limit/rate-limiter.js';

/**
 * The route's middleware chain with its rate limit in place: first for
 * `by: ip`, last for `by: user` and `by: token`; `chain` unchanged when the
 * route has no limit.
 * @param services the app's services; `cache` is read per request (set up by `cache()`).
 * @throws {BinderyError} `BINDERY_ROUTE_INVALID` when the route has a limit and the app has no cache.
 */
export function withRateLimit(route: RouteDefinition, chain: readonly Middleware[], services: Services): readonly Middleware[] {
  const plan = route.rateLimit;
  if (plan === undefined) return chain;
  const cache = services.cache;
  if (cache === undefined) {
    throw new BinderyError(
      'BINDERY_ROUTE_INVALID',
      `Route "${route.name}" (${route.origin}) has rateLimit ${plan.limit} per ${formatDuration(plan.windowMs)}, counted in the cache, but the app has none: add cache() to the setup list (app/main.ts), before the steps that use it.`,
    );
  }
  const limiter = routeRateLimit(route.name, plan, cache);
  return plan.by === 'ip' ? [limiter, ...chain] : [...chain, limiter];
}

/**
 * A middleware counting each request against `plan` under the name
 * `route:<routeName>`: within the limit it sets `X-RateLimit-Limit`,
 * `X-RateLimit-Remaining` and `X-RateLimit-Reset` and goes on; over it, it
 * throws the 429 (`BINDERY_RATE_LIMITED`, `Retry-After`).
 * @param cache where the counts live.
 */
export function routeRateLimit(routeName: string, plan: RateLimitPlan, cache: Cache): BeforeMiddleware {
  const rule: RateLimit = { name: `route:${routeName}`, limit: plan.limit, windowMs: plan.windowMs };
  const per = formatDuration(plan.windowMs);
  return {
    before: async (ctx) => {
      const state = await hitRateLimit(cache, rule, clientKey(ctx, plan.by));
      if (!state.allowed) {
        throw rateLimitedError(
          state,
          `Too many requests: this route allows ${plan.limit} per ${per} from one ${plan.by === 'ip' ? 'client address' : plan.by}. Wait until the time in Retry-After has passed.`,
        );
      }
      ctx.reply.headers(rateLimitHeaders(state));
      return undefined;
    },
  };
}

/** Who is counted: `user:<id>`, `token:<id>` or `ip:<address>`. */
function clientKey(ctx: RequestContext, by: RateLimitPlan['by']): string {
  if (by === 'user' && ctx.auth.id !== null) return `user:${ctx.auth.id}`;
  if (by === 'token' && ctx.auth.token !== null) return `token:${ctx.auth.token.id}`;
  return `ip:${ctx.request.ip}`;
}
