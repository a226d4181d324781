/**
 * A database that cannot serve a query right now: the connection was lost
 * (the server restarted, an operator terminated the backend, the network
 * dropped) or no connection could be opened, or the database refuses
 * writes (read-only). Requests caught by it get 503 with `Retry-After`,
 * instead of a 500 (docs/database.md "Lost connections", "Read-only").
 */
import { HttpError } from '../errors/http-error.js';

/** `detail` of the 503. */
export const DATABASE_UNAVAILABLE_DETAIL = 'The database is unavailable right now; try again in a moment.';

/**
 * 503 `BINDERY_DATABASE_UNAVAILABLE`: the query failed because its
 * connection was lost or none could be opened. The pg error is the `cause`
 * (logged, shown on the debug page, never to clients). Sent with
 * `Retry-After: 1` (seconds).
 */
export class DatabaseUnavailableError extends HttpError {
  constructor(cause: unknown) {
    super('BINDERY_DATABASE_UNAVAILABLE', DATABASE_UNAVAILABLE_DETAIL, { cause, headers: { 'retry-after': '1' } });
  }

  override get name(): string {
    return 'DatabaseUnavailableError';
  }
}

/** `detail` of the 503 for a read-only database. */
export const DATABASE_READ_ONLY_DETAIL = 'The database accepts no writes right now (it is read-only); try again later.';

/**
 * 503 `BINDERY_DATABASE_READ_ONLY`: a write was refused because the
 * database is read-only (SQLSTATE 25006: `default_transaction_read_only`,
 * a standby after a failover, a read-only replica). The pg error is the
 * `cause`. Sent with `Retry-After: 5` (seconds).
 */
export class DatabaseReadOnlyError extends HttpError {
  constructor(cause: unknown) {
    super('BINDERY_DATABASE_READ_ONLY', DATABASE_READ_ONLY_DETAIL, { cause, headers: { 'retry-after': '5' } });
  }

  override get name(): string {
    return 'DatabaseReadOnlyError';
  }
}

/** True when `error` is PostgreSQL's "cannot execute … in a read-only transaction" (SQLSTATE 25006). Never throws. */
export function isReadOnlyFailure(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '25006';
}

/**
 * SQLSTATE classes and codes that mean the connection, not the query, failed:
 * class 08 (connection exception), 57P01–57P03 (admin or crash shutdown,
 * cannot connect now), 53300 (too many connections).
 */
const CONNECTION_STATES = /^(08...|57P0[123]|53300)$/;

/** Node socket errors of a lost or refused connection. */
const SOCKET_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * pg's own messages (errors without a SQLSTATE) for a dead connection, a
 * connect timeout or a pool that has been ended.
 */
const PG_MESSAGES =
  /^(Connection terminated|Client has encountered a connection error|Client was closed and is not queryable|timeout exceeded when trying to connect|Cannot use a pool after calling end)/;

/**
 * True when `error` says the connection failed rather than the query (see
 * {@link DatabaseUnavailableError}). A query error (syntax, constraint,
 * bad value) is false. Never throws.
 */
export function isConnectionFailure(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (CONNECTION_STATES.test(code) || SOCKET_CODES.has(code)) return true;
  }
  return typeof message === 'string' && PG_MESSAGES.test(message);
}

/**
 * `error` as a {@link DatabaseUnavailableError} when it is a connection
 * failure, as a {@link DatabaseReadOnlyError} when a write met a read-only
 * database, else unchanged.
 */
export function asUnavailable(error: unknown): unknown {
  if (error instanceof DatabaseUnavailableError || error instanceof DatabaseReadOnlyError) return error;
  if (isReadOnlyFailure(error)) return new DatabaseReadOnlyError(error);
  return isConnectionFailure(error) ? new DatabaseUnavailableError(error) : error;
}

/**
 * Rethrows `error` as {@link asUnavailable} gives it: for `.catch()` on a
 * query run outside Kysely's pool facade (compiled queries, the audit log's
 * own pool writes), so a lost connection answers 503 there too. Always throws.
 */
export function rethrowUnavailable(error: unknown): never {
  throw asUnavailable(error);
}
