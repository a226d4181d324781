/**
 * Problem details, the error body for API clients (docs/spec.md 2.8; RFC 9457).
 */
import { statusPhrase } from './status.js';

/** Content type of problem details responses. */
export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/**
 * The body of an error response for an API client. Members are written in
 * this order; `errors` is present only for binding and validation failures.
 */
export interface ProblemDetails {
  readonly type: 'about:blank';
  /** The HTTP status phrase, e.g. "Unprocessable Content". */
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  /** Field name (the client's name) → message. */
  readonly errors?: Readonly<Record<string, string>>;
  /** The request ID, also sent in `X-Request-ID`. */
  readonly request_id: string;
}

/**
 * Build problem details. Never throws.
 * @param errors field errors keyed by the client's names; omitted when absent.
 * @example problemDetails(422, 'The given data was invalid.', 'req-1', { title: 'The title field is required.' })
 */
export function problemDetails(
  status: number,
  detail: string,
  requestId: string,
  errors?: Readonly<Record<string, string>>,
): ProblemDetails {
  return errors === undefined
    ? { type: 'about:blank', title: statusPhrase(status), status, detail, request_id: requestId }
    : { type: 'about:blank', title: statusPhrase(status), status, detail, errors, request_id: requestId };
}
