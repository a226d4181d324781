/**
 * The middleware of the auth core (docs/spec.md 5.1 rules 1–4, 5.2; docs/auth.md
 * "Middleware"): `auth` (the session guard: who is signed in), `require`
 * (guests are sent to log in) and `guest` (signed-in users are sent home).
 */
import type { FastifyRequest } from 'fastify';
import { decideClientKind } from '../http/client-kind.js';
import type { ClientKind, RequestContext } from '../http/context.js';
import type { RouteDefinition } from '../routing/route-table.js';
import type { BeforeMiddleware } from '../http/handler.js';
import type { HttpRequestContext } from '../http/request-context.js';
import { HttpError } from '../errors/http-error.js';
import { redirect } from '../results/result.js';
import { RequestAuth } from '../context/request-auth.js';
import { isLocalPath } from '../results/local-path.js';
import { INTENDED_URL_KEY, type SessionAuth } from './session-auth.js';
import { tokenSchemeOf } from './tokens/token-scheme.js';

/**
 * `auth`: sets `ctx.auth` from the session. The user ID in the session
 * gives a signed-in `ctx.auth` whose user is loaded on first use (and the
 * session ends there if the password changed since); without one, a
 * remember-me cookie signs the user into a new session. On a route without
 * the session middleware before it, the request stays a guest (docs/spec.md 5.1
 * rule 1: auth before session makes every page redirect to login).
 */
export function sessionGuard(auth: SessionAuth<unknown>): BeforeMiddleware {
  return {
    before(context) {
      const ctx = context as HttpRequestContext;
      const session = ctx.sessionState;
      if (session === undefined) return undefined;
      const slot = session.user;
      if (slot !== null) {
        ctx.auth = new RequestAuth({ via: 'session', id: slot.id, load: () => auth.loadSessionUser(ctx, slot) });
        return undefined;
      }
      const cookie = auth.remember.read(ctx.request);
      return cookie === undefined ? undefined : auth.signInFromCookie(ctx, cookie);
    },
  };
}

/**
 * `require`: lets signed-in users through. A guest asking for a page is
 * redirected (303) to `loginUrl`, the page (GET) remembered for after login;
 * JSON and htmx requests, and routes without a session (the API group), get
 * 401 (`WWW-Authenticate: Bearer` on routes of the token middleware).
 */
export function requireGuard(loginUrl: string): BeforeMiddleware {
  const refuse = (context: RequestContext): unknown => {
    const ctx = context as HttpRequestContext;
    if (ctx.sessionState !== undefined && asksForPage(ctx.client, ctx.route)) {
      const method = ctx.request.method;
      // Only a path on this site is remembered (it is checked again when used).
      if ((method === 'GET' || method === 'HEAD') && isLocalPath(ctx.request.url)) ctx.session.put(INTENDED_URL_KEY, ctx.request.url);
      return redirect(loginUrl);
    }
    throw unauthenticated(ctx.route);
  };
  return {
    // Before the body is read: a request with neither a cookie nor an
    // Authorization header is a guest whatever its body says.
    beforeBody(request: FastifyRequest, route: RouteDefinition) {
      if (request.headers.cookie !== undefined || request.headers.authorization !== undefined) return undefined;
      if (route.middleware.includes('session') && asksForPage(decideClientKind(request.headers), route)) return loginUrl;
      throw unauthenticated(route);
    },
    before(ctx) {
      // A guest is decided without a promise; a signed-in request loads its user (the fingerprint is checked there).
      if (!ctx.auth.signedIn) return refuse(ctx);
      return ctx.auth.user().then((user) => (user === null ? refuse(ctx) : undefined));
    },
  };
}

/** `guest`: sends signed-in users to `homeUrl` (303). */
export function guestGuard(homeUrl: string): BeforeMiddleware {
  return {
    before(ctx) {
      if (!ctx.auth.signedIn) return undefined;
      return ctx.auth.user().then((user) => (user === null ? undefined : redirect(homeUrl)));
    },
  };
}

/**
 * Whether a guest should be sent to the login page rather than answered 401:
 * not a JSON client, not plain htmx, and a browser or a page route.
 */
function asksForPage(client: ClientKind, route: RouteDefinition): boolean {
  if (client.wantsJson) return false;
  if (client.isHtmx && !client.isHtmxBoosted) return false;
  return client.isBrowser || route.result === 'page';
}

/** The 401 of a guest on `route` (a bearer-token route says how to send one). */
function unauthenticated(route: RouteDefinition): HttpError {
  if (route.middleware.includes('token')) {
    const scheme = tokenSchemeOf(route);
    return new HttpError('BINDERY_TOKEN_MISSING', `This route needs an API token: send Authorization: ${scheme} <token>.`, {
      headers: { 'www-authenticate': scheme },
    });
  }
  return new HttpError('BINDERY_AUTH_UNAUTHENTICATED', 'You are not signed in; sign in and try again.');
}
