/**
 * Turn anything thrown into what the response needs (docs/spec.md 7).
 *
 * Rules, in order:
 * 1. An {@link HttpError} keeps its status; its message is shown unless it
 *    was built with `expose: false`.
 * 2. Any other error exposing a numeric `status` or `statusCode` from 400 to
 *    599 keeps it; its message is shown for 4xx (unless `expose === false`)
 *    and hidden for 5xx (unless `expose === true`).
 * 3. An error exposing `fieldErrors` (an object) but no status is a field
 *    failure: 422.
 * 4. Everything else (including non-Error throws) is 500 with the message
 *    hidden: "An internal error occurred."
 *
 * With `debug`, every message is shown. `fieldErrors` of any error fill the
 * problem details `errors`.
 */
import { inspect } from 'node:util';
import { HttpError } from './http-error.js';
import { statusPhrase } from './status.js';

/** `detail` of a 5xx whose message is hidden. */
export const HIDDEN_DETAIL = 'An internal error occurred.';

/** What an error means for the response. */
export interface ErrorInfo {
  /** HTTP status, 400–599. */
  readonly status: number;
  /** Stable code for logs: the error's own `code` (string), else `BINDERY_INTERNAL_ERROR` for 5xx or `BINDERY_HTTP_ERROR`. */
  readonly code: string;
  /** Text for the client (problem details `detail`). */
  readonly detail: string;
  /** Field errors by input key, when the error carries them. */
  readonly fieldErrors: Readonly<Record<string, string>> | undefined;
  /** Extra response headers the error asks for. */
  readonly headers: Readonly<Record<string, string>> | undefined;
  /** The error itself (a non-Error throw is wrapped in an `Error` whose `cause` is the value). */
  readonly error: Error;
}

/**
 * Describe `thrown` for the response. Never throws.
 * @param debug `APP_DEBUG`: show every message.
 */
export function describeError(thrown: unknown, debug: boolean): ErrorInfo {
  const error = toError(thrown);
  const shape = error as Error & {
    status?: unknown;
    statusCode?: unknown;
    expose?: unknown;
    code?: unknown;
    fieldErrors?: unknown;
    headers?: unknown;
  };
  let status: number;
  let exposed: boolean;
  if (error instanceof HttpError) {
    status = error.status;
    exposed = error.expose;
  } else {
    const own = validStatus(shape.status) ?? validStatus(shape.statusCode);
    const fieldErrors = isRecord(shape.fieldErrors);
    status = own ?? (fieldErrors ? 422 : 500);
    exposed = status < 500 ? shape.expose !== false : shape.expose === true;
  }
  const message = error.message;
  const detail =
    debug || exposed ? (message !== '' ? message : statusPhrase(status)) : status >= 500 ? HIDDEN_DETAIL : statusPhrase(status);
  const code =
    typeof shape.code === 'string' && shape.code !== '' ? shape.code : status >= 500 ? 'BINDERY_INTERNAL_ERROR' : 'BINDERY_HTTP_ERROR';
  return {
    status,
    code,
    detail,
    fieldErrors: isRecord(shape.fieldErrors) ? (shape.fieldErrors as Record<string, string>) : undefined,
    headers: isRecord(shape.headers) && error instanceof HttpError ? (shape.headers as Record<string, string>) : undefined,
    error,
  };
}

/** `thrown` as an Error: Errors as they are, anything else wrapped ("A non-error value was thrown: 'oops'"). */
export function toError(thrown: unknown): Error {
  if (thrown instanceof Error) return thrown;
  return new Error(`A non-error value was thrown: ${inspect(thrown, { depth: 2, breakLength: Infinity })}`, { cause: thrown });
}

function validStatus(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 400 && value <= 599 ? value : undefined;
}

function isRecord(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
