/**
 * Errors (docs/spec.md 7): coded errors, HTTP errors and their renderings.
 *
 * Handlers throw {@link HttpError} (status + client message),
 * {@link ValidationError} (422, field errors) or {@link NotFoundError}; any
 * error exposing `status`/`statusCode` (400–599) keeps it; anything else is
 * a 500 with its message hidden unless `APP_DEBUG=true`.
 */
export {
  docsOf,
  ERROR_CODES,
  errorMessage,
  statusOf,
  type ErrorCode,
  type ErrorCodeSpec,
  type HttpErrorCode,
  type MessageParams,
  type TemplatedCode,
} from './codes.js';
export { BinderyError } from './bindery-error.js';
export { HttpError, type HttpErrorOptions } from './http-error.js';
export type { LocalizedMessage } from './localized-message.js';
export { ValidationError, ConversionError } from './validation-error.js';
export { NotFoundError } from './not-found-error.js';
export { problemDetails, PROBLEM_CONTENT_TYPE, type ProblemDetails } from './problem-details.js';
