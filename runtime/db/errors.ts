/**
 * Error classes of the database layer (codes in `runtime/errors/codes.ts`,
 * causes and fixes in `docs/errors.md`).
 */
import { CodedError, codedErrorClass } from '../errors/coded-error.js';

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
    super(
      'BINDERY_INTEGER_UNSAFE',
      `The database returned the bigint ${text}, beyond ±${Number.MAX_SAFE_INTEGER} where JavaScript numbers lose precision; ` +
        'keep such values below 2^53, or cast the column to text or numeric in the query.',
    );
    this.text = text;
  }
}
