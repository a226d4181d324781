/**
 * The part of the CSRF check that needs no body (runtime/http/before-body.ts;
 * docs/csrf.md): run before a request body is read, so a refused request
 * never makes the server read it. The full check still runs in the `csrf`
 * middleware afterwards.
 */
import type { FastifyRequest } from 'fastify';
import type { RouteDefinition } from '../routing/route-table.js';
import { CsrfError } from './csrf-error.js';
import { sameOriginRequest } from './origin-check.js';

/**
 * For an unsafe method with a form body (URL-encoded or multipart, the
 * bodies whose token the middleware reads from the body; JSON requests may
 * be exempt, and other types get 415 from the body parser without being
 * read): refuse a request the browser marks
 * as cross-site (403, `cross-origin`), and one without any cookie, which
 * cannot hold the session its token must match (403, `token`). A route
 * without the `session` middleware is left to the middleware, which reports
 * the misconfiguration.
 * @throws {CsrfError} as said; otherwise returns `undefined`.
 */
export function csrfBeforeBody(request: FastifyRequest, route: RouteDefinition): undefined {
  if (!route.middleware.includes('session')) return undefined;
  const method = request.method;
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS' || method === 'TRACE') return undefined;
  const headers = request.headers;
  const contentType = headers['content-type'];
  if (contentType === undefined) return undefined;
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded' && type !== 'multipart/form-data') return undefined;
  if (!sameOriginRequest(headers)) throw new CsrfError('cross-origin');
  if (headers.cookie === undefined) throw new CsrfError('token');
  return undefined;
}
