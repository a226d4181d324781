/**
 * The `csrf` middleware (docs/spec.md 5.4; docs/csrf.md). It runs after `session`
 * on page routes; API routes have neither.
 *
 * GET, HEAD, OPTIONS and TRACE pass. Every other method goes through two
 * layers: the browser's own cross-site marks (layer 1, {@link sameOriginRequest}),
 * then the session's token, sent as the form field `_token` (URL-encoded or
 * multipart) or the `X-CSRF-Token` header (layer 2). Either failure is 403.
 *
 * One exemption: a request with a JSON body (`application/json` or
 * `+json` — a content type no page of another site can send without a CORS
 * preflight) and neither the session cookie nor the remember-me cookie
 * carries no ambient credentials, so API clients such as `curl` need no
 * token. With either cookie, JSON requests are checked like the rest (send
 * the header): the remember-me cookie alone signs a request in.
 *
 * CORS (docs/http.md "CORS"): a request from an origin the route's group
 * lists in `cors.origins` passes layer 1; layer 2 applies as to any other.
 */
import { isUrlEncoded } from '../binding/body-kind.js';
import { MultipartBody } from '../binding/multipart.js';
import { SessionError } from '../session/errors.js';
import { readCookie } from '../session/cookie-header.js';
import { REMEMBER_COOKIE } from '../auth/remember-cookie.js';
import { isJsonType } from '../http/client-kind.js';
import type { BeforeMiddleware } from '../http/handler.js';
import type { HttpRequestContext } from '../http/request-context.js';
import type { FastifyRequest } from 'fastify';
import { CsrfError } from './csrf-error.js';
import { csrfBeforeBody } from './csrf-before-body.js';
import { sameOriginRequest } from './origin-check.js';
import { corsAllowsOrigin } from '../http/cors.js';

/** Header carrying the token for htmx and fetch calls. */
export const CSRF_HEADER = 'x-csrf-token';
/** Form field carrying the token. */
export const CSRF_FIELD = '_token';

/**
 * The `csrf` middleware.
 * @param options.sessionCookie the session cookie's name (`SessionManager.cookieName`): with it, a
 *   JSON request carrying that cookie without an `X-CSRF-Token` header is refused before its body is
 *   read. Absent: only the remember-me cookie is known early (the middleware still checks in full).
 */
export function createCsrfMiddleware(options: { readonly sessionCookie?: string } = {}): BeforeMiddleware {
  const early = [...REMEMBER_NAMES, ...(options.sessionCookie === undefined ? [] : [options.sessionCookie])];
  return {
    beforeBody: csrfBeforeBody(early),
    before(context) {
      const ctx = context as HttpRequestContext;
      const request = ctx.request;
      const method = request.method;
      if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS' || method === 'TRACE') return undefined;
      const session = ctx.sessionState;
      if (session === undefined) {
        throw new SessionError(
          'BINDERY_CSRF_WITHOUT_SESSION',
          `Route "${ctx.route.name}" runs the csrf middleware without the session middleware before it; list them as [session, csrf] in the route's group in schema/*.yaml.`,
        );
      }
      const headers = request.headers;
      const contentType = headers['content-type'];
      // A JSON body without the session or remember-me cookie carries no ambient credentials (curl, API clients).
      if (contentType !== undefined && isJsonType(mediaType(contentType)) && !session.hasCookie && !hasRememberCookie(headers.cookie))
        return undefined;
      // An origin the route's CORS lists by name passes this layer; the token below is still needed.
      if (!sameOriginRequest(headers) && !corsAllowsOrigin(ctx.route.cors, headers.origin)) throw new CsrfError('cross-origin');
      const token = submittedToken(request);
      if (token === undefined || !session.verifyCsrfToken(token)) throw new CsrfError('token');
      return undefined;
    },
  };
}

/** The token the request carries: the `X-CSRF-Token` header, else the form field `_token` (first value). */
export function submittedToken(request: FastifyRequest): string | undefined {
  const header = request.headers[CSRF_HEADER];
  if (typeof header === 'string' && header !== '') return header;
  const body = request.body;
  let value: unknown;
  if (body instanceof MultipartBody) value = body.fields[CSRF_FIELD];
  else if (body !== null && typeof body === 'object' && isUrlEncoded(request.headers['content-type']))
    value = (body as Record<string, unknown>)[CSRF_FIELD];
  if (Array.isArray(value)) value = value[0];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Names the remember-me cookie may have (`__Host-` when Secure). */
const REMEMBER_NAMES = [REMEMBER_COOKIE, `__Host-${REMEMBER_COOKIE}`] as const;

/** Whether the `Cookie` header carries a remember-me cookie (either name), whatever its value. */
function hasRememberCookie(cookie: string | undefined): boolean {
  if (cookie === undefined) return false;
  return REMEMBER_NAMES.some((name) => readCookie(cookie, name) !== undefined);
}

function mediaType(value: string): string {
  const semi = value.indexOf(';');
  return (semi === -1 ? value : value.slice(0, semi)).trim().toLowerCase();
}
