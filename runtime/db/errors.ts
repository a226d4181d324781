/**
 * Error classes of the database layer (codes in `runtime/errors/codes.ts`,
 * causes and fixes in `docs/errors.md`).
 */
import { CodedError, codedErrorClass } from '../errors/coded-error.js';
import { errorMessage } from '../errors/codes.js';

/** The database did not accept a connection (`BINDERY_DATABASE_UNREACHABLE`). */
export const DatabaseUnreachableError = codedErrorClass('DatabaseUnreachableError', 'BINDERY_DATABASE_UNREACHABLE');
/** An instance of {@link DatabaseUnreachableError}. */
export type DatabaseUnreachableError = InstanceType<typeof DatabaseUnreachableError>;

/** The embedded PostgreSQL failed to initialise, start or stop (`BINDERY_EMBEDDED_POSTGRES_FAILED`). */
export const EmbeddedPostgresError = codedErrorClass('EmbeddedPostgresError', 'BINDERY_EMBEDDED_POSTGRES_FAILED');
/** An instance of {@link EmbeddedPostgresError}. */
export type EmbeddedPostgresError = InstanceType<typeof EmbeddedPostgresError>;

/** A `bigint` value does not fit a JavaScript number exactly (`BINDERY_INTEGER_UNSAFE`). */
export class UnsafeIntegerError extends CodedError {
  /** The value as PostgreSQL sent it. */
  readonly text: string;
  constructor(text: string) {
    super('BINDERY_INTEGER_UNSAFE', errorMessage('BINDERY_INTEGER_UNSAFE', { value: text }));
    this.text = text;
  }
}
