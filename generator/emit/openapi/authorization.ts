/**
 * Who may call a route, in the OpenAPI document (docs/authorization.md
 * "Clients"): the security requirements of guarded routes (a bearer token
 * whose scopes are the abilities it needs, a session cookie), their 401 and
 * 403 answers, and `x-authorization` naming the policy action.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { Model, Route } from '../../model/model.js';
import { allowsGuests } from '../../model/route-authorization.js';

/** The security scheme of routes with the `token` middleware (docs/spec.md 5.5). */
export const BEARER = 'bearerToken';
/** The security scheme of a route's tokens: {@link BEARER}, or `<scheme>Token` for a group's own scheme (`tokenToken` for `Token`). */
export function tokenSecurityName(route: Route): string {
  return route.tokenScheme === null || route.tokenScheme === 'Bearer' ? BEARER : `${route.tokenScheme.toLowerCase()}Token`;
}

/** The OpenAPI security scheme named by {@link tokenSecurityName} for a scheme other than Bearer: the whole `Authorization` header. */
export function tokenSecurityScheme(scheme: string): OpenAPIV3_1.SecuritySchemeObject {
  return {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description: `An API token, \`<id>|<secret>\`, sent as \`Authorization: ${scheme} <token>\` (docs/tokens.md). The scopes of a requirement are the abilities the token needs.`,
  };
}

/** The security schemes of the token routes among `routes`, by name (the Bearer one is `bearer`). */
export function tokenSchemes(
  routes: readonly Route[],
  bearer: OpenAPIV3_1.SecuritySchemeObject,
): Record<string, OpenAPIV3_1.SecuritySchemeObject> {
  const out: Record<string, OpenAPIV3_1.SecuritySchemeObject> = {};
  for (const route of routes) {
    if (!route.middleware.includes('token')) continue;
    const name = tokenSecurityName(route);
    out[name] ??= name === BEARER ? bearer : tokenSecurityScheme(route.tokenScheme!);
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** The security scheme of routes signed in by the session (`session` and `auth` middleware). */
export const SESSION = 'sessionCookie';

/** The schemes a route's middleware signs requests in with. */
function schemes(route: Route): { bearer: boolean; session: boolean } {
  return { bearer: route.middleware.includes('token'), session: route.middleware.includes('session') && route.middleware.includes('auth') };
}

/** The policy action's ability, when the route has a policy (a bearer token needs it). */
function policyAbility(route: Route, model: Model): string | undefined {
  const a = route.authorize;
  if (a === null) return undefined;
  return model.policies.find((p) => p.name === a.policy)?.actions.find((x) => x.name === a.action)?.ability;
}

/** A guest is refused: the `require` guard, or a policy whose rule needs a signed-in user. */
export function refusesGuests(route: Route, model: Model): boolean {
  if (route.middleware.includes('require')) return true;
  const a = route.authorize;
  if (a === null) return false;
  const rule = model.policies.find((p) => p.name === a.policy)?.actions.find((x) => x.name === a.action)?.rule;
  return rule !== undefined && !allowsGuests(rule);
}

/** A signed-in caller can be refused: a token ability the route or its policy needs, or the policy. */
export function mayForbid(route: Route): boolean {
  return route.authorize !== null || (route.middleware.includes('token') && route.abilities.length > 0);
}

/**
 * The route's `security` (absent when it signs no one in): the bearer token
 * with the abilities it needs as scopes, the session cookie, and `{}` when a
 * guest may call it too.
 */
export function securityOf(route: Route, model: Model): { security?: OpenAPIV3_1.SecurityRequirementObject[] } {
  const { bearer, session } = schemes(route);
  if (!bearer && !session) return {};
  const ability = policyAbility(route, model);
  const scopes = [...new Set([...route.abilities, ...(ability !== undefined ? [ability] : [])])];
  const guarded = refusesGuests(route, model);
  if (!bearer && !guarded && route.authorize === null) return {};
  const security: OpenAPIV3_1.SecurityRequirementObject[] = [
    ...(bearer ? [{ [tokenSecurityName(route)]: scopes }] : []),
    ...(session && (guarded || route.authorize !== null) ? [{ [SESSION]: [] }] : []),
    // A guest may call it too: a route with a policy that admits guests, or optional authentication (a token route without require).
    ...(!guarded && (route.authorize !== null || bearer) ? [{}] : []),
  ];
  return { security };
}

/** `x-authorization: { policy, action }` of a route with a policy. */
export function authorizationExtension(route: Route): { 'x-authorization'?: { policy: string; action: string } } {
  const a = route.authorize;
  return a === null ? {} : { 'x-authorization': { policy: a.policy, action: a.action } };
}

/** The session cookie scheme, when a documented route is signed in by the session. */
export function sessionScheme(routes: readonly Route[], model: Model): Record<string, OpenAPIV3_1.SecuritySchemeObject> {
  if (!routes.some((r) => (securityOf(r, model).security ?? []).some((s) => SESSION in s))) return {};
  return {
    [SESSION]: {
      type: 'apiKey',
      in: 'cookie',
      name: '__Host-app_session',
      description:
        'The session cookie the login route sets (`__Host-app_session` over HTTPS, else `app_session`; its name follows SESSION_COOKIE). Calls that change something also need the `X-CSRF-Token` header.',
    },
  };
}
