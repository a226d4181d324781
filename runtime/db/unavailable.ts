/**
 * A database that cannot serve a query right now: the connection was lost
 * (the server restarted, an operator terminated the backend, the network
 * dropped) or no connection could be opened, or the database refuses
 * writes (read-only). Requests caught by it get 503 with `Retry-After`,
 * instead of a 500 (docs/database.md "Lost connections", "Read-only").
 */
import { HttpError } from '../errors/http-error.js';
import { classifyDriverError } from './database-errors.js';

/** `detail` of the 503. */
export const DATABASE_UNAVAILABLE_DETAIL = 'The database is unavailable right now; try again in a moment.';

/**
 * 503 `BINDERY_DATABASE_UNAVAILABLE`: the query failed because its
 * connection was lost or none could be opened. The driver's error is the `cause`
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
 * database is read-only (`default_transaction_read_only`,
 * a standby after a failover, a read-only replica). The driver's error is the
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

/** True when `error` is a write refused by a read-only database (a standby, a read-only setting). Never throws. */
export function isReadOnlyFailure(error: unknown): boolean {
  return classifyDriverError(error)?.kind === 'read-only';
}

/**
 * True when `error` says the connection failed rather than the query (see
 * {@link DatabaseUnavailableError}): lost, refused, timed out, or the pool
 * ended. A query error (syntax, constraint, bad value) is false. Never throws.
 */
export function isConnectionFailure(error: unknown): boolean {
  return classifyDriverError(error)?.kind === 'connection-lost';
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
