/**
 * CORS for the routes of groups that declare `cors:` in the YAML
 * (docs/http.md "CORS"), by `@fastify/cors`.
 *
 * The plugin is registered in an encapsulated Fastify context holding only
 * those routes, so its hook never runs for the others: a route without CORS
 * costs nothing. Each route carries its group's options in its route config;
 * the origin is checked against the group's list per request, and an origin
 * not listed gets no CORS header at all (no `Access-Control-Allow-Credentials`
 * either). Preflights (`OPTIONS` with `Access-Control-Request-Method`) of an
 * allowed origin are answered 204 before any middleware runs; of any other
 * origin, like any OPTIONS request (405 with `Allow`).
 *
 * The `CORS_ORIGINS` setting replaces the origins of every such group
 * ({@link withCorsOrigins}), once, before the server is built.
 *
 * CSRF stays: see {@link corsAllowsOrigin}, which the `csrf` middleware uses.
 */
import fastifyCors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { SettingsError } from '../config/load-settings.js';
import type { CorsPlan, RouteDefinition, RouteTable } from '../routing/route-table.js';
import { fastifyPath } from './route-paths.js';

/**
 * The route table with `origins` (the `CORS_ORIGINS` setting) in place of
 * the YAML's list on every route whose group declares `cors:`; the other
 * options of the group (credentials, headers, max age) stay, and routes
 * without `cors:` are returned as they are (docs/http.md "CORS").
 * @param origins the allowed origins, `['*']` for any, `[]` for none; `undefined`: the table unchanged.
 * @returns a new table (the same one when `origins` is undefined).
 * @throws {SettingsError} `BINDERY_SETTING_INVALID` when `origins` is `*` and a group allows credentials (browsers refuse the pair, and it would let any site act with the user's cookies).
 */
export function withCorsOrigins(routes: RouteTable, origins: readonly string[] | undefined): RouteTable {
  if (origins === undefined) return routes;
  if (origins.includes('*')) {
    const groups = [...new Set(routes.filter((r) => r.cors?.credentials === true).map((r) => r.group ?? r.name))];
    if (groups.length > 0) {
      throw new SettingsError([
        {
          names: ['CORS_ORIGINS'],
          message: `CORS_ORIGINS="*": the group${groups.length === 1 ? '' : 's'} ${groups.join(', ')} declare${groups.length === 1 ? 's' : ''} cors with credentials: true, which cannot go with any origin; list the origins`,
        },
      ]);
    }
  }
  return routes.map((route) => (route.cors === undefined ? route : { ...route, cors: { ...route.cors, origins: [...origins] } }));
}

/**
 * Whether `plan` lists `origin` by name (`*` does not count): such a
 * request passes the CSRF middleware's cross-origin layer, but still needs
 * the session's CSRF token when it carries the session cookie.
 * Never throws.
 */
export function corsAllowsOrigin(plan: CorsPlan | undefined, origin: string | undefined): boolean {
  return plan !== undefined && origin !== undefined && plan.origins.includes(origin);
}

/** `@fastify/cors` route options of a plan; `methods` for the preflight's `Access-Control-Allow-Methods`. */
function corsOptions(plan: CorsPlan, methods: readonly string[]): FastifyCorsOptions {
  const any = plan.origins.includes('*');
  const listed = new Set(plan.origins);
  return {
    origin: (origin: string | undefined, callback: (error: Error | null, allow: string | boolean) => void) => {
      if (origin === undefined) callback(null, false);
      else callback(null, listed.has(origin) ? origin : any ? '*' : false);
    },
    credentials: plan.credentials,
    maxAge: plan.maxAge,
    allowedHeaders: [...plan.headers],
    exposedHeaders: [...plan.exposeHeaders],
    methods: [...methods],
  };
}

/**
 * Register `routes` (every one has `cors`) in one encapsulated context with
 * `@fastify/cors`, plus an `OPTIONS` route per path for the preflight
 * (unless the table has its own).
 * @param routes the routes to serve with CORS (each has `cors`).
 * @param all every route of the table (to find paths with their own OPTIONS route).
 * @param routeOptions the Fastify route options of a route (as the server registers every route).
 * @throws nothing itself; a registration error surfaces at `app.ready()`.
 */
export function registerCorsRoutes(
  app: FastifyInstance,
  routes: readonly RouteDefinition[],
  all: readonly RouteDefinition[],
  routeOptions: (route: RouteDefinition) => RouteOptions,
): void {
  if (routes.length === 0) return;
  const byPath = new Map<string, RouteDefinition[]>();
  for (const route of routes) byPath.set(route.path, [...(byPath.get(route.path) ?? []), route]);
  void app.register(async (scope) => {
    await scope.register(fastifyCors, { origin: false, hook: 'onRequest', preflight: true, strictPreflight: true, hideOptionsRoute: true });
    for (const route of routes) {
      const options = routeOptions(route);
      const methods = withHead(byPath.get(route.path)!.map((r) => r.method));
      scope.route({ ...options, config: { ...(options.config as object), cors: corsOptions(route.cors!, methods) } });
    }
    for (const [path, onPath] of byPath) {
      if (all.some((r) => r.path === path && r.method === 'OPTIONS')) continue;
      scope.route({
        method: 'OPTIONS',
        url: fastifyPath(path),
        config: { cors: corsOptions(onPath[0]!.cors!, withHead(onPath.map((r) => r.method))) },
        // Reached only when the hook did not answer: not a preflight of an allowed origin.
        handler: (_request, reply) => {
          reply.callNotFound();
        },
      });
    }
  });
}

function withHead(methods: readonly string[]): string[] {
  const out = [...new Set(methods)];
  if (out.includes('GET')) out.push('HEAD');
  return out;
}
