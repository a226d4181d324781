/**
 * CSRF protection (docs/spec.md 5.4; docs/csrf.md): the `csrf` middleware (added
 * by the `session()` setup step), masked tokens, the origin check and the
 * 403 error.
 */
export { CSRF_FIELD, CSRF_HEADER } from './csrf-middleware.js';
export { CsrfError } from './csrf-error.js';
