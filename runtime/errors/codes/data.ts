/**
 * Registered error codes: The database and migrations, the audit log, jobs, storage (merged into `ERROR_CODES` by
 * runtime/errors/codes.ts; causes and fixes in docs/errors.md). Keep each
 * section sorted.
 */
import type { ErrorCodeSpec } from './spec.js';

/** The database and migrations, the audit log, jobs, storage. */
export const DATA_CODES = {
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
} as const satisfies Record<string, ErrorCodeSpec>;
