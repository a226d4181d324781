/**
 * Unknown paths (404) and known paths with another method (405 + `Allow`).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../errors/http-error.js';
import { sendError } from './error-response.js';
import type { MethodIndex } from './route-paths.js';
import type { StandardHeaders } from './security-headers.js';

/**
 * Fastify's not-found handler: 405 with `Allow` listing the path's methods
 * (HEAD included when GET exists) when the path is known, else 404; both
 * rendered like every error, with the standard headers.
 */
export function notFoundHandler(
  methods: MethodIndex,
  headers: StandardHeaders,
  debug: boolean,
): (request: FastifyRequest, reply: FastifyReply) => void {
  return function notFound(request, reply) {
    headers.apply(reply);
    const url = request.url;
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const allowed = methods.allowed(path);
    const error =
      allowed.length > 0
        ? new HttpError(
            'BINDERY_METHOD_NOT_ALLOWED',
            `The method ${request.method} is not allowed for ${path}; use ${allowed.join(', ')}.`,
            { headers: { allow: allowed.join(', ') } },
          )
        : new HttpError('BINDERY_NOT_FOUND', `Nothing is served at ${path}.`);
    sendError(request, reply, error, debug, null);
  };
}
