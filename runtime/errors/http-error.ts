/**
 * Errors that answer an HTTP status (docs/spec.md 7, rule 1).
 *
 * `HttpError(status, message)` gives that status with `message` shown to the
 * client (problem details `detail`, or the HTML error page). Its
 * `fieldErrors` fill the `errors` object, keyed by input field key (the
 * runtime maps keys to the client's names: the JSON name for a JSON body, the
 * form name for a form, the query/path/header name).
 */
import type { LocalizedMessage } from './localized-message.js';
import { docsOf, ERROR_CODES, statusOf, type ErrorCode, type HttpErrorCode } from './codes.js';

/** Options of {@link HttpError}. */
export interface HttpErrorOptions {
  /** A stable code for logs (a `BINDERY_…` code or the app's own). */
  readonly code?: ErrorCode | (string & {});
  /** Field errors by input key, message per field; they fill problem details `errors`. */
  readonly fieldErrors?: Readonly<Record<string, string>>;
  /**
   * The catalog messages of some `fieldErrors` (docs/i18n.md "Errors"): with
   * the `i18n()` step, those fields are answered in the request's locale;
   * `fieldErrors` keeps the English text.
   */
  readonly fieldMessages?: Readonly<Record<string, LocalizedMessage>>;
  /** The catalog message of `message` (the `detail`), answered in the request's locale with `i18n()` (docs/i18n.md "Errors"). */
  readonly detailMessage?: LocalizedMessage;
  /** Extra response headers (e.g. `Allow`, `Retry-After`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The underlying error (shown in the debug page's error chain, never to clients otherwise). */
  readonly cause?: unknown;
  /**
   * Whether `message` is shown to the client. Default `true`: an `HttpError`'s
   * message is written for clients (docs/spec.md 7 rule 1), even for 5xx statuses.
   */
  readonly expose?: boolean;
}

/**
 * An error with an HTTP status (400–599) and a message for the client.
 *
 * A 4xx error carries no stack frames (`stack` is just `Name: message`):
 * it is an expected answer, and capturing a stack per invalid request costs
 * CPU for nothing (docs/errors.md). A 5xx error keeps its stack trace.
 *
 * @param status HTTP status, an integer from 400 to 599; or a registered
 *   `BINDERY_…` code, whose status and code then both come from the registry
 *   (`runtime/errors/codes.ts`) — how bindery builds its own HTTP errors.
 * @param message shown to the client as problem details `detail` / the page text.
 * @throws {RangeError} when `status` is not an integer from 400 to 599, or a
 *   code the registry gives no status.
 * @example throw new HttpError(409, 'A note with this title already exists.', { code: 'NOTES_DUPLICATE' })
 * @example throw new HttpError('BINDERY_NOT_FOUND', 'Nothing is served at /x.')
 */
export class HttpError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  /** Field errors by input key; replaced by their translations once the response's locale is known (docs/i18n.md). */
  fieldErrors: Readonly<Record<string, string>> | undefined;
  readonly fieldMessages: Readonly<Record<string, LocalizedMessage>> | undefined;
  readonly detailMessage: LocalizedMessage | undefined;
  readonly headers: Readonly<Record<string, string>> | undefined;
  readonly expose: boolean;

  constructor(statusOrCode: number | HttpErrorCode, message: string, options: HttpErrorOptions = {}) {
    const status = typeof statusOrCode === 'number' ? statusOrCode : statusOf(statusOrCode);
    if (status === undefined || !Number.isInteger(status) || status < 400 || status > 599) {
      throw new RangeError(
        `HttpError status must be an integer from 400 to 599 or a registered code with a status, got ${String(statusOrCode)}`,
      );
    }
    // A 4xx is an expected answer (invalid input, no such record, not allowed),
    // not a defect: nothing ever shows its stack (logs and the debug page show
    // stacks of 5xx only), and capturing one is a measurable share of the CPU
    // of an invalid request (docs/benchmarks.md). So 4xx errors are built
    // without stack frames; 5xx errors keep theirs.
    const limit = Error.stackTraceLimit;
    if (status < 500) Error.stackTraceLimit = 0;
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    Error.stackTraceLimit = limit;
    this.status = status;
    this.code = typeof statusOrCode === 'string' ? statusOrCode : options.code;
    this.fieldErrors = options.fieldErrors;
    this.fieldMessages = options.fieldMessages;
    this.detailMessage = options.detailMessage;
    this.headers = options.headers;
    this.expose = options.expose ?? true;
  }

  /** Where a registered code is documented (`docs/errors.md#bindery_not_found`); `undefined` for no code or the app's own codes. */
  get docs(): string | undefined {
    return this.code !== undefined && this.code in ERROR_CODES ? docsOf(this.code) : undefined;
  }

  override get name(): string {
    return 'HttpError';
  }
}
