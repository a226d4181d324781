/**
 * Error classes of the migrator (codes in `runtime/errors/codes.ts`, causes
 * and fixes in `docs/errors.md`).
 */
import { CodedError, codedErrorClass } from '../../errors/coded-error.js';
import { errorMessage } from '../../errors/codes.js';

/** What a failing file left behind on PostgreSQL, and what to do: the end of its message. */
export const ROLLED_BACK =
  'Its transaction was rolled back and nothing was recorded; the migrations after it did not run. Fix the data it trips on (or the file, if it was never applied anywhere) and run "bindery migrate" again; to drop the change instead, see docs/database.md "When a migration fails".';

/** Where in a file a statement-by-statement strategy (MySQL, MariaDB) failed. */
export interface FailedStatement {
  /** 1-based number of the failing statement in the file. */
  readonly index: number;
  /** Statements in the file. */
  readonly count: number;
  /** Statements of the file, from its start, that ran and stay applied (`index - 1`). */
  readonly applied: number;
}

/** Options of {@link MigrationFailedError}. */
export interface MigrationFailedOptions {
  readonly cause?: unknown;
  /** What the failure left behind and what to do (default {@link ROLLED_BACK}, PostgreSQL's). */
  readonly aftermath?: string;
  /** The failing statement, for an engine that runs a file statement by statement. */
  readonly statement?: FailedStatement;
}

/**
 * A migration file failed (`BINDERY_MIGRATION_FAILED`; docs/database.md "Migrations per engine"):
 * on PostgreSQL its transaction was rolled back; on MySQL and MariaDB the
 * statements before the failing one stay applied ({@link statement}).
 */
export class MigrationFailedError extends CodedError {
  /** `source/name`, e.g. `app/0002_add_tags.sql`. */
  readonly migration: string;
  /** 1-based line in the file where the database located the error, when it did. */
  readonly line: number | undefined;
  /** What the database said (on PostgreSQL with its SQLSTATE, detail and hint; on MySQL with its errno and SQLSTATE). */
  readonly reason: string;
  /** The failing statement and how many stay applied (MySQL, MariaDB); `undefined` on PostgreSQL. */
  readonly statement: FailedStatement | undefined;
  constructor(migration: string, line: number | undefined, reason: string, options: MigrationFailedOptions = {}) {
    const where = [
      ...(options.statement ? [`statement ${options.statement.index} of ${options.statement.count}`] : []),
      ...(line ? [`line ${line}`] : []),
    ];
    const atLine = where.length > 0 ? ` (${where.join(', ')})` : '';
    super(
      'BINDERY_MIGRATION_FAILED',
      errorMessage('BINDERY_MIGRATION_FAILED', { migration, atLine, reason, aftermath: options.aftermath ?? ROLLED_BACK }),
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.migration = migration;
    this.line = line;
    this.reason = reason;
    this.statement = options.statement;
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

/** A migration set has no migrations for the database's engine (`BINDERY_MIGRATION_ENGINE_MISSING`; docs/database.md "Migrations per engine"). */
export const MigrationEngineMissingError = codedErrorClass('MigrationEngineMissingError', 'BINDERY_MIGRATION_ENGINE_MISSING');
/** An instance of {@link MigrationEngineMissingError}. */
export type MigrationEngineMissingError = InstanceType<typeof MigrationEngineMissingError>;
