/**
 * PostgreSQL's errors as bindery's kinds (docs/database.md "Errors"): pg's
 * SQLSTATE codes and its own messages for a dead connection, read once here
 * so that nothing else names a SQLSTATE.
 */
import type { DatabaseErrorInfo, DatabaseErrorKind } from '../../engine.js';

/** SQLSTATE → kind, for the codes bindery tells apart. */
const STATES: ReadonlyMap<string, DatabaseErrorKind> = new Map([
  ['23505', 'unique-violation'],
  ['23503', 'foreign-key-violation'],
  ['23514', 'check-violation'],
  ['23502', 'not-null-violation'],
  ['40001', 'serialization-failure'],
  ['40P01', 'deadlock'],
  ['25006', 'read-only'],
  ['42P01', 'undefined-table'],
]);

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
 * What `error` is, when it came from pg (a SQLSTATE in `code`, a socket
 * error, one of pg's connection messages).
 * @returns the kind and the constraint pg names, or `undefined`. Never throws.
 */
export function classifyPostgresError(error: unknown): DatabaseErrorInfo | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, message, constraint } = error as { code?: unknown; message?: unknown; constraint?: unknown };
  if (typeof code === 'string') {
    const kind = STATES.get(code);
    if (kind !== undefined) return typeof constraint === 'string' ? { kind, constraint } : { kind };
    if (CONNECTION_STATES.test(code) || SOCKET_CODES.has(code)) return { kind: 'connection-lost' };
  }
  if (typeof message === 'string' && PG_MESSAGES.test(message)) return { kind: 'connection-lost' };
  return undefined;
}

/**
 * The 1-based character position pg gives for a failing statement (`position`),
 * with its detail and hint, for a migration's failure message.
 */
export function postgresErrorDetail(error: unknown): { position?: number; detail?: string; hint?: string; code?: string } {
  if (typeof error !== 'object' || error === null) return {};
  const e = error as { position?: unknown; detail?: unknown; hint?: unknown; code?: unknown };
  return {
    ...(typeof e.position === 'string' && e.position !== '' ? { position: Number(e.position) } : {}),
    ...(typeof e.detail === 'string' ? { detail: e.detail } : {}),
    ...(typeof e.hint === 'string' ? { hint: e.hint } : {}),
    ...(typeof e.code === 'string' ? { code: e.code } : {}),
  };
}
