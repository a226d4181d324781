/**
 * The startup check of guarded routes (docs/spec.md 7 rule 9: "auth middleware
 * missing from a route"): a route whose middleware has `require` or `guest`
 * needs `auth` (session) or `token` (bearer) before the guard, or the guard
 * would see a guest on every request.
 */
import type { RouteTable } from '../routing/route-table.js';
import { routeOrigin } from '../routing/route-origin.js';
import { AuthSetupError } from './errors.js';

/** Middleware names that set `ctx.auth`. */
export const AUTHENTICATING_MIDDLEWARE: readonly string[] = ['auth', 'token'];
/** Middleware names that read `ctx.auth`. */
export const GUARD_MIDDLEWARE: readonly string[] = ['require', 'guest'];

/**
 * @throws {AuthSetupError} `BINDERY_AUTH_MIDDLEWARE_MISSING` naming every such route and where it was declared.
 */
export function checkGuardedRoutes(routes: RouteTable): void {
  const problems: string[] = [];
  for (const route of routes) {
    const list = route.middleware;
    for (let i = 0; i < list.length; i++) {
      if (!GUARD_MIDDLEWARE.includes(list[i]!)) continue;
      if (list.slice(0, i).some((m) => AUTHENTICATING_MIDDLEWARE.includes(m))) continue;
      const group = route.group === null ? '' : ` (group "${route.group}")`;
      problems.push(
        `${routeOrigin(route)}: route "${route.name}"${group} uses the guard "${list[i]}" without "auth" or "token" before it (middleware: [${list.join(', ')}])`,
      );
    }
  }
  if (problems.length === 0) return;
  throw new AuthSetupError(
    'BINDERY_AUTH_MIDDLEWARE_MISSING',
    `${problems.length === 1 ? 'A guarded route has' : `${problems.length} guarded routes have`} no auth middleware, so the guard would always see a guest:\n${problems.map((p) => `  - ${p}`).join('\n')}\nPut "auth" (after session and csrf) or "token" before the guard in the group's middleware, e.g. middleware: [session, csrf, auth, require].`,
  );
}
