/**
 * Error classes of the migrator (codes in `runtime/errors/codes.ts`, causes
 * and fixes in `docs/errors.md`).
 */
import { CodedError, codedErrorClass } from '../../errors/coded-error.js';
import { errorMessage } from '../../errors/codes.js';

/** A migration file failed; on PostgreSQL its transaction was rolled back (`BINDERY_MIGRATION_FAILED`; docs/database.md "Migrations per engine"). */
export class MigrationFailedError extends CodedError {
  /** `source/name`, e.g. `app/0002_add_tags.sql`. */
  readonly migration: string;
  /** 1-based line in the file where the database located the error, when it did. */
  readonly line: number | undefined;
  /** What the database said (on PostgreSQL with its SQLSTATE, detail and hint). */
  readonly reason: string;
  constructor(migration: string, line: number | undefined, reason: string, options?: { cause?: unknown }) {
    const atLine = line ? ` (line ${line})` : '';
    super('BINDERY_MIGRATION_FAILED', errorMessage('BINDERY_MIGRATION_FAILED', { migration, atLine, reason }), options);
    this.migration = migration;
    this.line = line;
    this.reason = reason;
  }
}

/** An applied migration file changed (`BINDERY_MIGRATION_CHANGED`). */
export class MigrationChangedError extends CodedError {
  /** The changed files, `source/name`. */
  readonly migrations: readonly string[];
  constructor(migrations: readonly string[], details: readonly string[]) {
    super(
      'BINDERY_MIGRATION_CHANGED',
      errorMessage('BINDERY_MIGRATION_CHANGED', {
        what: migrations.length === 1 ? 'An applied migration was' : `${migrations.length} applied migrations were`,
        details: details.map((d) => `  - ${d}\n`).join(''),
      }),
    );
    this.migrations = migrations;
  }
}

/** A migration set is invalid (`BINDERY_MIGRATION_SET_INVALID`). */
export const MigrationSetError = codedErrorClass('MigrationSetError', 'BINDERY_MIGRATION_SET_INVALID');
/** An instance of {@link MigrationSetError}. */
export type MigrationSetError = InstanceType<typeof MigrationSetError>;
