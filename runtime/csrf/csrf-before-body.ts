/**
 * The part of the CSRF check that needs no body (runtime/http/before-body.ts;
 * docs/csrf.md): run before a request body is read, so a refused request
 * never makes the server read it. The full check still runs in the `csrf`
 * middleware afterwards.
 */
import type { FastifyRequest } from 'fastify';
import type { RouteDefinition } from '../routing/route-table.js';
import { readCookie } from '../session/cookie-header.js';
import { isJsonType } from '../http/client-kind.js';
import { corsAllowsOrigin } from '../http/cors.js';
import { CsrfError } from './csrf-error.js';
import { sameOriginRequest } from './origin-check.js';

/**
 * The early CSRF check of a route with the `session` middleware, for an
 * unsafe method (a route without `session` is left to the middleware, which
 * reports the misconfiguration):
 *
 * - a form body (URL-encoded or multipart, whose token the middleware reads
 *   from the body): refuse a request the browser marks as cross-site (403,
 *   `cross-origin`), and one without any cookie, which cannot hold the
 *   session its token must match (403, `token`);
 * - a JSON body carrying the session cookie or a remember-me cookie (one of
 *   `cookies`; without them the request is exempt): its token can only come
 *   in the `X-CSRF-Token` header, so refuse one without that header (403,
 *   `token`), or one the browser marks as cross-site from an origin the
 *   route's CORS does not list (403, `cross-origin`).
 *
 * Other content types get 415 from the body parser without being read.
 * @param cookies the names of the session and remember-me cookies.
 */
export function csrfBeforeBody(cookies: readonly string[]): (request: FastifyRequest, route: RouteDefinition) => undefined {
  return (request, route) => {
    if (!route.middleware.includes('session')) return undefined;
    const method = request.method;
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS' || method === 'TRACE') return undefined;
    const headers = request.headers;
    const contentType = headers['content-type'];
    if (contentType === undefined) return undefined;
    const type = contentType.split(';')[0]!.trim().toLowerCase();
    if (type === 'application/x-www-form-urlencoded' || type === 'multipart/form-data') {
      if (!sameOriginRequest(headers)) throw new CsrfError('cross-origin');
      if (headers.cookie === undefined) throw new CsrfError('token');
      return undefined;
    }
    if (!isJsonType(type)) return undefined;
    const cookie = headers.cookie;
    if (cookie === undefined || !cookies.some((name) => readCookie(cookie, name) !== undefined)) return undefined;
    if (!sameOriginRequest(headers) && !corsAllowsOrigin(route.cors, headers.origin)) throw new CsrfError('cross-origin');
    const token = headers['x-csrf-token'];
    if (typeof token !== 'string' || token === '') throw new CsrfError('token');
    return undefined;
  };
}
