/**
 * CSRF protection (docs/spec.md 5.4; docs/csrf.md): the `csrf` middleware (added
 * by the `session()` setup step), masked tokens, the origin check and the
 * 403 error.
 */
export { createCsrfMiddleware, submittedToken, CSRF_FIELD, CSRF_HEADER } from './csrf-middleware.js';
export { CsrfError, PAGE_EXPIRED_MESSAGE, CROSS_ORIGIN_MESSAGE } from './csrf-error.js';
export { maskCsrfToken, verifyCsrfToken, CSRF_TOKEN_BYTES, MASKED_TOKEN_CHARS } from '../session/csrf-token.js';
export { sameOriginRequest } from './origin-check.js';
