/**
 * The registry of coded errors (CONVENTIONS.md "Errors"; Fastify's
 * `lib/errors.js` is the model). Every error bindery raises on purpose has a
 * stable `BINDERY_…` code here, with the HTTP status it answers when it
 * reaches a client (absent for boot, CLI and generator errors) and a
 * one-line summary. `docs/errors.md` gives each code's cause and fix; a test
 * checks the two lists against each other in both directions.
 *
 * Add codes in the section of their area; keep each section sorted.
 */
export interface ErrorCodeSpec {
  /** HTTP status when the error reaches a client; absent for boot/CLI/generator errors. */
  readonly status?: number;
  /** One-line summary (the problem-details `title` comes from the status). */
  readonly summary: string;
}

export const ERROR_CODES = {
  // ── http: binding, validation, results, routing (runtime/http, runtime/binding) ──
  BINDERY_BAD_REQUEST: { status: 400, summary: 'The request has invalid values (conversion failure).' },
  BINDERY_BODY_TOO_LARGE: { status: 413, summary: 'The request body is larger than HTTP_MAX_BODY.' },
  BINDERY_CLIENT_CLOSED_REQUEST: { status: 499, summary: 'The client went away before the response was written; nothing is written, only logged.' },
  BINDERY_DEBUG_IN_PRODUCTION: { summary: 'APP_DEBUG=true is refused when APP_ENV=production; the boot stops.' },
  BINDERY_EMPTY_RESPONSE: { status: 500, summary: 'A custom responder returned without writing a response.' },
  BINDERY_HANDLER_WITHOUT_ROUTE: { summary: 'A handler is given for a route name that is not in the route table; the boot stops.' },
  BINDERY_HTTP_ERROR: { summary: 'An error with its own HTTP status and no code of its own (logged code only).' },
  BINDERY_INTERNAL_ERROR: { status: 500, summary: 'An error without an HTTP status of its own; the message is hidden unless APP_DEBUG=true.' },
  BINDERY_MALFORMED_BODY: { status: 400, summary: 'The request body cannot be read as its Content-Type says (bad JSON, not an object, bad multipart).' },
  BINDERY_MALFORMED_URL: { status: 400, summary: 'The request URL cannot be decoded.' },
  BINDERY_METHOD_NOT_ALLOWED: { status: 405, summary: 'The path exists but not for this method; Allow lists the methods.' },
  BINDERY_MIDDLEWARE_MISSING: { summary: 'A route asks for a middleware name that was not provided; the boot stops.' },
  BINDERY_NOT_FOUND: { status: 404, summary: 'No route matches the path, or a handler reported a missing resource.' },
  BINDERY_REQUEST_TIMEOUT: { status: 503, summary: 'The handler did not finish within HTTP_REQUEST_TIMEOUT.' },
  BINDERY_RESPONSE_ABORTED: { summary: 'The request failed after the response had started; the connection was aborted (logged only).' },
  BINDERY_ROUTE_INVALID: { summary: 'A route definition cannot be served (duplicate, bad path parameter, unknown rule or type); the boot stops.' },
  BINDERY_ROUTE_WITHOUT_HANDLER: { summary: 'A route of the table has no handler; the boot stops.' },
  BINDERY_UNKNOWN_ROUTE: { status: 500, summary: 'A redirect or URL names a route that does not exist, or leaves a path parameter empty.' },
  BINDERY_UNSUPPORTED_MEDIA_TYPE: { status: 415, summary: 'The body content type is neither JSON nor a form type.' },
  BINDERY_VALIDATION_FAILED: { status: 422, summary: 'The given data was invalid.' },
  BINDERY_VIEW_FAILED: { status: 500, summary: 'A page view could not be rendered; an error page is sent instead.' },
  BINDERY_VIEWS_NOT_CONFIGURED: { summary: 'A page route exists but no views folder was given; the boot stops.' },

  // ── config and boot (runtime/config, runtime/app) ──
  BINDERY_APP_INVALID: { summary: 'The app module is missing or its default export is not a defineApp(...) result.' },
  BINDERY_LISTEN_FAILED: { summary: 'The HTTP server could not listen on HTTP_ADDR (address in use or not permitted).' },
  BINDERY_SETTING_INVALID: { summary: 'A setting is missing or has an invalid value; the boot stops.' },
  BINDERY_SETUP_INVALID: { summary: 'An app setup step is duplicated, out of order, or needs a step that is not set up.' },

  // ── database and migrations (runtime/db) ──
  BINDERY_DATABASE_UNREACHABLE: { summary: 'The database cannot be reached or refused the connection.' },
  BINDERY_EMBEDDED_POSTGRES_FAILED: { summary: 'The embedded PostgreSQL could not be created, started or stopped.' },
  BINDERY_INTEGER_UNSAFE: { summary: 'A bigint read from the database is outside the safe integer range of JavaScript numbers.' },
  BINDERY_MIGRATION_CHANGED: { summary: 'An applied migration file was changed after it was applied (checksum differs).' },
  BINDERY_MIGRATION_FAILED: { summary: 'A migration file failed; its transaction was rolled back and nothing was recorded.' },
  BINDERY_MIGRATION_SET_INVALID: { summary: 'A migration set is invalid (bad or duplicate source name, unreadable folder).' },

  // ── generator (generator/) ──
  BINDERY_MIGRATION_DESTRUCTIVE: { summary: 'The schema change would drop a table or column or narrow a column type; refused without allowDestructive.' },
  BINDERY_MIGRATION_UNSUPPORTED: { summary: 'The schema change cannot be migrated safely as written (e.g. a NOT NULL column without default) or the migration history is broken.' },
  BINDERY_SCHEMA_INVALID: { summary: 'A schema file has an error; nothing under generated/ changed.' },
} as const satisfies Record<string, ErrorCodeSpec>;

/** Every registered error code. */
export type ErrorCode = keyof typeof ERROR_CODES;
