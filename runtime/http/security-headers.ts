/**
 * Headers every response carries (docs/http.md "Security headers").
 */
import type { FastifyReply } from 'fastify';
import type { AppEnvironment } from './server-options.js';
import { REQUEST_ID_HEADER } from './request-id.js';
import { DEFAULT_CONTENT_SECURITY_POLICY } from '../config/content-security-policy.js';
import { addVary } from '../support/vary.js';

/** A header name (lower case) and value. */
export type HeaderPair = readonly [name: string, value: string];

/** Options of {@link securityHeaders}. */
export interface SecurityHeaderOptions {
  /**
   * The `Content-Security-Policy` value; `null` sends none; unset sends
   * {@link DEFAULT_CONTENT_SECURITY_POLICY} (docs/http.md "Content-Security-Policy").
   */
  readonly contentSecurityPolicy?: string | null;
}

/**
 * The security headers for `environment`: `X-Content-Type-Options: nosniff`,
 * `X-Frame-Options: SAMEORIGIN`, `Referrer-Policy: strict-origin-when-cross-origin`,
 * `Cross-Origin-Opener-Policy: same-origin`, `Content-Security-Policy` (the
 * default policy unless `options` says otherwise), and in production only
 * `Strict-Transport-Security: max-age=31536000; includeSubDomains`.
 */
export function securityHeaders(environment: AppEnvironment, options: SecurityHeaderOptions = {}): readonly HeaderPair[] {
  const headers: HeaderPair[] = [
    ['x-content-type-options', 'nosniff'],
    ['x-frame-options', 'SAMEORIGIN'],
    ['referrer-policy', 'strict-origin-when-cross-origin'],
    ['cross-origin-opener-policy', 'same-origin'],
  ];
  const policy = options.contentSecurityPolicy === undefined ? DEFAULT_CONTENT_SECURITY_POLICY : options.contentSecurityPolicy;
  if (policy !== null) headers.push(['content-security-policy', policy]);
  if (environment === 'production') headers.push(['strict-transport-security', 'max-age=31536000; includeSubDomains']);
  return headers;
}

/**
 * Sets the standard headers (request ID and security headers) on replies,
 * and `Vary: HX-Request` on the reply to an htmx request (`HX-Request: true`;
 * docs/http.md "Headers"): whatever the route's group, a response to htmx
 * may differ from the one a plain request gets (a 422 instead of a redirect,
 * a fragment instead of a page).
 * Built once per server; `apply` runs on every response path (routes,
 * 404/405, errors, health) and is cheap (a few `reply.header` calls).
 */
export class StandardHeaders {
  readonly #pairs: readonly HeaderPair[];

  constructor(environment: AppEnvironment, options: SecurityHeaderOptions = {}) {
    this.#pairs = securityHeaders(environment, options);
  }

  /** Set the headers on `reply` (its request's ID in `X-Request-ID`). */
  apply(reply: FastifyReply): void {
    reply.header(REQUEST_ID_HEADER, reply.request.id);
    const pairs = this.#pairs;
    for (let i = 0; i < pairs.length; i++) reply.header(pairs[i]![0], pairs[i]![1]);
    if (reply.request.headers['hx-request'] === 'true') addVary(reply, 'HX-Request');
  }

  /** Set the headers on the raw response, for custom responders that bypass `reply.send`. */
  applyRaw(reply: FastifyReply): void {
    reply.raw.setHeader(REQUEST_ID_HEADER, reply.request.id);
    for (const [name, value] of this.#pairs) reply.raw.setHeader(name, value);
    if (reply.request.headers['hx-request'] === 'true') {
      const vary = reply.raw.getHeader('vary');
      const text = vary === undefined ? '' : Array.isArray(vary) ? vary.join(', ') : String(vary);
      if (!/(^|,)\s*(hx-request|\*)\s*(,|$)/i.test(text)) reply.raw.setHeader('vary', text === '' ? 'HX-Request' : `${text}, HX-Request`);
    }
  }
}
