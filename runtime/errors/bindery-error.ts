/**
 * The base of bindery's coded errors (docs/errors.md).
 *
 * A `BinderyError` carries a stable code from {@link ERROR_CODES}; when it
 * reaches a client it answers the status the registry gives its code (500
 * for codes without one, like every error without a status); boot errors (route table checks, debug refused in production) are
 * thrown by `createHttpServer` and stop the boot.
 */
import { docsOf, statusOf, type ErrorCode } from './codes.js';

export class BinderyError extends Error {
  /** Stable code, documented in `docs/errors.md`. */
  readonly code: ErrorCode;

  /**
   * @param code registered code (`runtime/errors/codes.ts`).
   * @param message what happened, the value seen, why it matters, what to do.
   * @param options.cause the underlying error, shown in the debug page's error chain.
   * @example throw new BinderyError('BINDERY_UNKNOWN_ROUTE', 'No route is named "notes.shw" (did you mean "notes.show"?).')
   */
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
  }

  /** The HTTP status of the code in the registry (`runtime/errors/codes.ts`); `undefined` for boot, CLI and generator codes. */
  get status(): number | undefined {
    return statusOf(this.code);
  }

  /** Where the code's cause and fix are documented, e.g. `docs/errors.md#bindery_seed_failed`. */
  get docs(): string {
    return docsOf(this.code);
  }

  override get name(): string {
    return 'BinderyError';
  }
}
