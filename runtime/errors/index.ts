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
export { ValidationError, ConversionError, VALIDATION_DETAIL, CONVERSION_DETAIL } from './validation-error.js';
export { NotFoundError } from './not-found-error.js';
export { describeError, toError, HIDDEN_DETAIL, type ErrorInfo } from './error-info.js';
export { problemDetails, PROBLEM_CONTENT_TYPE, type ProblemDetails } from './problem-details.js';
export { errorPageHtml, type ErrorPage } from './html-page.js';
export { debugPageHtml, errorChain, type DebugPage, type DebugRequest } from './debug-page.js';
export { redactHeaders, redactUrl, REDACTED_HEADERS, REDACTED } from './redact.js';
export { statusPhrase } from './status.js';
export { escapeHtml } from './html.js';
