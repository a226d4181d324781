/**
 * CSRF refusals (docs/spec.md 5.4: "Failure of either is 403"; docs/csrf.md).
 * Rendered by the client rules like any HTTP error: problem details for API
 * clients, the HTML error page for browsers.
 */
import { HttpError } from '../errors/http-error.js';

/** What the page says when the token is missing or wrong. */
export const PAGE_EXPIRED_MESSAGE = 'This page has expired. Reload the page and try again.';
/** What the page says when the request came from another site. */
export const CROSS_ORIGIN_MESSAGE =
  'The request was rejected because it came from another site (cross-origin request). Go back to this site and try again from its own page.';

/** 403: the request failed a CSRF check. `reason` says which layer refused it. */
export class CsrfError extends HttpError {
  /** `cross-origin` (layer 1: Sec-Fetch-Site or Origin) or `token` (layer 2). */
  readonly reason: 'cross-origin' | 'token';

  constructor(reason: 'cross-origin' | 'token') {
    super(
      reason === 'token' ? 'BINDERY_CSRF_TOKEN_MISMATCH' : 'BINDERY_CSRF_CROSS_ORIGIN',
      reason === 'token' ? PAGE_EXPIRED_MESSAGE : CROSS_ORIGIN_MESSAGE,
    );
    this.reason = reason;
  }

  override get name(): string {
    return 'CsrfError';
  }
}
