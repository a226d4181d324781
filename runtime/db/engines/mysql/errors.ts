/**
 * MySQL's and MariaDB's errors as bindery's kinds (docs/database.md "Errors"):
 * the server's error numbers (`errno` of a mysql2 error), with the key or
 * constraint parsed from the message, and mysql2's own codes and messages for
 * a dead connection, read once here so that nothing else names an errno.
 */
import type { DatabaseErrorInfo, DatabaseErrorKind } from '../../engine.js';

/** Server error number → kind, for the numbers bindery tells apart (both servers use them alike). */
const ERRNOS: ReadonlyMap<number, DatabaseErrorKind> = new Map([
  [1062, 'unique-violation'], // ER_DUP_ENTRY
  [1586, 'unique-violation'], // ER_DUP_ENTRY_WITH_KEY_NAME
  [1451, 'foreign-key-violation'], // ER_ROW_IS_REFERENCED_2
  [1452, 'foreign-key-violation'], // ER_NO_REFERENCED_ROW_2
  [1216, 'foreign-key-violation'], // ER_NO_REFERENCED_ROW
  [1217, 'foreign-key-violation'], // ER_ROW_IS_REFERENCED
  [3819, 'check-violation'], // ER_CHECK_CONSTRAINT_VIOLATED (MySQL)
  [1048, 'not-null-violation'], // ER_BAD_NULL_ERROR
  [1364, 'not-null-violation'], // ER_NO_DEFAULT_FOR_FIELD: a NOT NULL column without default left out
  [1263, 'not-null-violation'], // ER_WARN_NULL_TO_NOTNULL (a multi-row insert, strict mode)
  [1020, 'serialization-failure'], // ER_CHECKREAD: the row changed since the snapshot (MariaDB's innodb_snapshot_isolation)
  [1213, 'deadlock'], // ER_LOCK_DEADLOCK: the transaction was rolled back
  [1792, 'read-only'], // ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION
  [1836, 'read-only'], // ER_READ_ONLY_MODE
  [1146, 'undefined-table'], // ER_NO_SUCH_TABLE
  [1051, 'undefined-table'], // ER_BAD_TABLE_ERROR (DROP TABLE of a missing table)
  [1040, 'connection-lost'], // ER_CON_COUNT_ERROR: too many connections
  [1053, 'connection-lost'], // ER_SERVER_SHUTDOWN
  [1927, 'connection-lost'], // ER_CONNECTION_KILLED (MariaDB)
  [3169, 'connection-lost'], // ER_SESSION_WAS_KILLED (MySQL)
  [4031, 'connection-lost'], // ER_CLIENT_INTERACTION_TIMEOUT (MySQL: the server closed an idle connection)
]);

/** 1290 ER_OPTION_PREVENTS_STATEMENT is read-only only when the option is `--read-only` or `--super-read-only`. */
const OPTION_PREVENTS = 1290;
const READ_ONLY_OPTION = /read[-_]only/i;
/** 4025 is MariaDB's ER_CONSTRAINT_FAILED (a CHECK); MySQL uses the number for another error. */
const MARIADB_CHECK = 4025;

/** mysql2's codes (and Node's socket codes) of a lost, refused or timed-out connection. */
const CONNECTION_CODES: ReadonlySet<string> = new Set([
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'PROTOCOL_ENQUEUE_AFTER_FATAL_ERROR',
  'PROTOCOL_ENQUEUE_AFTER_QUIT',
  'POOL_TIMEOUT',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** mysql2's messages (errors without a code) for a closed connection or an ended pool. */
const MYSQL2_MESSAGES =
  /^(Pool is closed\.|Can't add new command when connection is in closed state|No connections available\.|Queue limit reached\.)/;

/**
 * What `error` is, when it came from mysql2 (a server error with its `errno`
 * and `sqlState`, a connection error of mysql2 or of the socket).
 * @returns the kind and the key or constraint the message names, or `undefined`. Never throws.
 */
export function classifyMysqlError(error: unknown): DatabaseErrorInfo | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { errno, sqlState, code, message, fatal } = error as {
    errno?: unknown;
    sqlState?: unknown;
    code?: unknown;
    message?: unknown;
    fatal?: unknown;
  };
  const text = typeof message === 'string' ? message : '';
  if (typeof errno === 'number' && typeof sqlState === 'string') return serverError(errno, text);
  if (typeof code === 'string' && CONNECTION_CODES.has(code)) return { kind: 'connection-lost' };
  if (MYSQL2_MESSAGES.test(text)) return { kind: 'connection-lost' };
  // mysql2 marks the errors after which a connection is unusable as fatal.
  if (fatal === true && typeof code === 'string' && code.startsWith('PROTOCOL_')) return { kind: 'connection-lost' };
  return undefined;
}

/** A server error (it has an `errno` and a SQLSTATE) by its number. */
function serverError(errno: number, message: string): DatabaseErrorInfo | undefined {
  if (errno === OPTION_PREVENTS) return READ_ONLY_OPTION.test(message) ? { kind: 'read-only' } : undefined;
  if (errno === MARIADB_CHECK) {
    const name = MARIADB_CHECK_MESSAGE.exec(message)?.[1];
    return name === undefined ? undefined : { kind: 'check-violation', constraint: unquote(name) };
  }
  const kind = ERRNOS.get(errno);
  if (kind === undefined) return undefined;
  const constraint = constraintOf(kind, message);
  return constraint === undefined ? { kind } : { kind, constraint };
}

/** `Duplicate entry 'x' for key 'users_email_key'` (MariaDB), `… for key 'users.users_email_key'` (MySQL 8.0.19+). */
const DUPLICATE_KEY = / for key '([^']*)'$/;
/** `… a foreign key constraint fails (`db`.`child`, CONSTRAINT `child_parent_fkey` FOREIGN KEY …)`. */
const FOREIGN_KEY = /CONSTRAINT `((?:[^`]|``)+)` FOREIGN KEY/;
/** `Check constraint 'notes_status_check' is violated.` (MySQL). */
const MYSQL_CHECK_MESSAGE = /^Check constraint '(.+)' is violated/;
/** `CONSTRAINT `notes_status_check` failed for `db`.`notes`` (MariaDB). */
const MARIADB_CHECK_MESSAGE = /^CONSTRAINT `((?:[^`]|``)+)` failed for /;

/** The key or constraint a message names, for the kinds that name one. */
function constraintOf(kind: DatabaseErrorKind, message: string): string | undefined {
  if (kind === 'unique-violation') {
    const key = DUPLICATE_KEY.exec(message)?.[1];
    // MySQL 8.0.19+ prefixes the key with its table; index names hold no dot.
    return key === undefined ? undefined : key.includes('.') ? key.slice(key.indexOf('.') + 1) : key;
  }
  if (kind === 'foreign-key-violation') {
    const name = FOREIGN_KEY.exec(message)?.[1];
    return name === undefined ? undefined : unquote(name);
  }
  if (kind === 'check-violation') return MYSQL_CHECK_MESSAGE.exec(message)?.[1];
  return undefined;
}

/** A backquoted identifier's text without its doubled backquotes. */
function unquote(name: string): string {
  return name.replaceAll('``', '`');
}
