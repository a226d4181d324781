/**
 * Headers every response carries (the list; SPEC.md 4.6).
 */
import type { FastifyReply } from 'fastify';
import type { AppEnvironment } from './server-options.js';
import { REQUEST_ID_HEADER } from './request-id.js';

/** A header name (lower case) and value. */
export type HeaderPair = readonly [name: string, value: string];

/**
 * The security headers for `environment`: `X-Content-Type-Options: nosniff`,
 * `X-Frame-Options: SAMEORIGIN`, `Referrer-Policy: strict-origin-when-cross-origin`,
 * `Cross-Origin-Opener-Policy: same-origin`, and in production only
 * `Strict-Transport-Security: max-age=31536000; includeSubDomains`.
 */
export function securityHeaders(environment: AppEnvironment): readonly HeaderPair[] {
  const headers: HeaderPair[] = [
    ['x-content-type-options', 'nosniff'],
    ['x-frame-options', 'SAMEORIGIN'],
    ['referrer-policy', 'strict-origin-when-cross-origin'],
    ['cross-origin-opener-policy', 'same-origin'],
  ];
  if (environment === 'production') headers.push(['strict-transport-security', 'max-age=31536000; includeSubDomains']);
  return headers;
}

/**
 * Sets the standard headers (request ID and security headers) on replies.
 * Built once per server; `apply` runs on every response path (routes,
 * 404/405, errors, health) and is cheap (a few `reply.header` calls).
 */
export class StandardHeaders {
  readonly #pairs: readonly HeaderPair[];

  constructor(environment: AppEnvironment) {
    this.#pairs = securityHeaders(environment);
  }

  /** Set the headers on `reply` (its request's ID in `X-Request-ID`). */
  apply(reply: FastifyReply): void {
    reply.header(REQUEST_ID_HEADER, reply.request.id);
    const pairs = this.#pairs;
    for (let i = 0; i < pairs.length; i++) reply.header(pairs[i]![0], pairs[i]![1]);
  }

  /** Set the headers on the raw response, for custom responders that bypass `reply.send`. */
  applyRaw(reply: FastifyReply): void {
    reply.raw.setHeader(REQUEST_ID_HEADER, reply.request.id);
    for (const [name, value] of this.#pairs) reply.raw.setHeader(name, value);
  }
}
