/**
 * Database errors by kind (docs/database.md "Errors"): an app or a
 * subsystem asks "is this a unique violation of `documents_slug_live_key`?"
 * without knowing the engine's error codes. Each engine reads its own
 * driver's errors (`engines/<engine>/errors.ts`); the cause chain is
 * followed, so an error wrapped by bindery (a 503, a failed migration) is
 * still recognized.
 */
import type { DatabaseErrorInfo, DatabaseErrorKind } from './engine.js';
import { classifyMysqlError } from './engines/mysql/errors.js';
import { classifyPostgresError } from './engines/postgres/errors.js';

/** The engines' classifiers, tried in turn (an error object comes from one driver only; socket errors mean the same to both). */
const CLASSIFIERS: ReadonlyArray<(error: unknown) => DatabaseErrorInfo | undefined> = [classifyPostgresError, classifyMysqlError];

/** What the error object itself is (its causes not followed): for the query paths that turn a driver's error into a 503. Never throws. */
export function classifyDriverError(error: unknown): DatabaseErrorInfo | undefined {
  for (const classify of CLASSIFIERS) {
    const info = classify(error);
    if (info !== undefined) return info;
  }
  return undefined;
}

/** How deep a `cause` chain is followed. */
const MAX_CAUSES = 5;

/**
 * What a database error is: its kind and the constraint it names.
 * @param error anything thrown; its `cause` chain is followed.
 * @returns `undefined` when it is no database error bindery tells apart. Never throws.
 * @example
 *   const info = databaseErrorOf(error); // { kind: 'unique-violation', constraint: 'users_email_key' }
 */
export function databaseErrorOf(error: unknown): DatabaseErrorInfo | undefined {
  let current = error;
  for (let depth = 0; depth < MAX_CAUSES && typeof current === 'object' && current !== null; depth++) {
    const info = classifyDriverError(current);
    if (info !== undefined) return info;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function isKind(kind: DatabaseErrorKind, error: unknown, constraint?: string): boolean {
  const info = databaseErrorOf(error);
  return info?.kind === kind && (constraint === undefined || info.constraint === constraint);
}

/**
 * Whether `error` is a unique violation (a duplicate key), optionally of the
 * named unique index or constraint.
 * @example
 *   catch (error) { if (isUniqueViolation(error, 'users_email_key')) throw new ValidationError({ email: 'taken' }); throw error; }
 */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  return isKind('unique-violation', error, constraint);
}

/** Whether `error` is a foreign-key violation, optionally of the named constraint. */
export function isForeignKeyViolation(error: unknown, constraint?: string): boolean {
  return isKind('foreign-key-violation', error, constraint);
}

/** Whether `error` is a CHECK violation, optionally of the named constraint. */
export function isCheckViolation(error: unknown, constraint?: string): boolean {
  return isKind('check-violation', error, constraint);
}

/** Whether `error` is a transaction the database gave up (a serialization failure or a deadlock): running it again may succeed. */
export function isSerializationFailure(error: unknown): boolean {
  const kind = databaseErrorOf(error)?.kind;
  return kind === 'serialization-failure' || kind === 'deadlock';
}

/** Whether `error` says a table does not exist (a migration set not applied yet). */
export function isUndefinedTable(error: unknown): boolean {
  return isKind('undefined-table', error);
}
