/**
 * The `Authorization` scheme of a route's tokens (docs/tokens.md "The scheme
 * of a group"): `Bearer` unless the route's group says otherwise
 * (`groups.api.token: { scheme: Token }` → `Authorization: Token <token>`).
 */
import type { RequestContext } from '../../http/context.js';
import type { RouteDefinition } from '../../routing/route-table.js';

/** The scheme of a group that names none (RFC 6750). */
export const DEFAULT_TOKEN_SCHEME = 'Bearer';

/** The scheme the `token` middleware reads on `route`. */
export function tokenSchemeOf(route: Pick<RouteDefinition, 'tokenScheme'>): string {
  return route.tokenScheme ?? DEFAULT_TOKEN_SCHEME;
}

/**
 * The token a request presents in `Authorization: <scheme> <token>`, the
 * scheme compared without regard to case.
 * @param scheme the scheme to read (default: the route's, {@link tokenSchemeOf}).
 * @returns `undefined` without an `Authorization` header of that scheme, else the token text, trimmed (possibly empty).
 * @example const plain = presentedToken(ctx); // "12|Vx3…" for "Authorization: Token 12|Vx3…" on a Token group
 */
export function presentedToken(
  ctx: Pick<RequestContext, 'request' | 'route'>,
  scheme: string = tokenSchemeOf(ctx.route),
): string | undefined {
  const header = ctx.request.headers.authorization;
  if (header === undefined) return undefined;
  const text = header.trim();
  if (text.length < scheme.length || text.slice(0, scheme.length).toLowerCase() !== scheme.toLowerCase()) return undefined;
  const rest = text.slice(scheme.length);
  if (rest === '') return '';
  if (rest[0] !== ' ' && rest[0] !== '\t') return undefined;
  return rest.trim();
}
