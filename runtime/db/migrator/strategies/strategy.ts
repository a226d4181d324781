/**
 * How an engine applies a migration file and keeps the books: its failure
 * model (docs/database.md "Engines", "Migrations").
 *
 * The migrator's core is the same on every engine: it reads the files, takes
 * the `bindery!` lock on one held connection, reads what is applied and what
 * failed (plain SQL over the two tables of `../tables.ts`), refuses changed
 * files, and walks the pending files in order. What a failing file leaves
 * behind depends on the engine, so the rest is the engine's strategy, chosen
 * by `engine.name` (`./for-engine.ts`):
 *
 * - **PostgreSQL** (`./postgres.ts`, `capabilities.transactionalDdl`): a
 *   file runs in one transaction together with its record, so a failing file
 *   leaves nothing behind but its row in the failures table, written after
 *   the rollback; the next run applies the file from its start.
 * - **MySQL / MariaDB** (`./mysql.ts`): DDL commits by itself, so a file
 *   cannot roll back whole. The strategy splits the file into statements
 *   (`./statements.mysql.ts`: each ends with `;` at the end of a line) and
 *   runs them one by one, keeping after each one how far the file got (the
 *   `statements_done` and `statements_checksum` columns of its failures
 *   table), and records the file once its last statement ran. A failure
 *   records the statement's number and line and the server's error (errno,
 *   SQLSTATE); the next run, when the statements already done are
 *   unchanged, resumes after them, and refuses (as for an applied file that
 *   changed) when they were edited ({@link MigrationStrategy.partlyApplied}).
 *   Its `MigrationFailedError` lists the statements that stay applied
 *   instead of saying "rolled back".
 *
 * Both fit {@link MigrationStrategy}: `apply` owns the whole life of one file
 * on the held connection (its statements, its record, its failure record,
 * any resume point), and the core only needs to know whether it applied,
 * the error to throw, and whether the connection survived.
 */
import type { EngineConnection } from '../../engine.js';
import type { MigrationFailedError } from '../errors.js';
import type { MigrationFile } from '../migration-set.js';

/** What {@link MigrationStrategy.apply} did with one file. */
export type ApplyOutcome =
  | { readonly applied: true }
  | {
      readonly applied: false;
      /** The failure, as `migrate` throws it: the file, the line, the engine's message and codes. */
      readonly error: MigrationFailedError;
      /** The session is gone (a rollback could not even be sent): the migrator neither unlocks nor reuses the connection. */
      readonly connectionLost: boolean;
    };

/** Where the books are read: statements on the pool or on the held connection, and whether a table exists. */
export interface BooksReader {
  run: EngineConnection['run'];
  tableExists(name: string): Promise<boolean>;
}

/** A pending file some of whose statements ran and stay applied (an engine without transactional DDL). */
export interface PartlyAppliedMigration {
  readonly source: string;
  readonly name: string;
  /** Statements of the file, from its start, that ran and stay applied. */
  readonly statementsDone: number;
  /** Statements in the file now. */
  readonly statements: number;
  /** When the last of them ran, or the file failed after them. */
  readonly since: Date;
  /** The checksum of the statements done, as they ran. */
  readonly doneChecksum: string;
  /** The checksum of the file's first `statementsDone` statements now (empty when the file has fewer statements). */
  readonly nowChecksum: string;
  /** The statements that ran were edited since: `migrate` refuses, as for an applied file that changed. */
  readonly edited: boolean;
}

/** One engine's way of applying migration files (see the module's comment). */
export interface MigrationStrategy {
  /**
   * Create the migrations and failures tables when missing, on the migrating
   * connection (the `bindery!` lock held).
   * @throws the engine's error when they cannot be created.
   */
  ensureTables(connection: EngineConnection): Promise<void>;
  /**
   * Apply one pending file and record it in the migrations table (removing
   * its failure row); on failure, leave what the engine's model leaves,
   * record the failure in the failures table (best effort) and report it.
   * Never throws for a failing file: the outcome says it.
   * @param statementsDone statements of the file that an earlier run applied (from {@link partlyApplied}; 0 on PostgreSQL): the file resumes after them.
   * @throws the engine's error when the connection fails before the file ran.
   */
  apply(connection: EngineConnection, file: MigrationFile, statementsDone: number): Promise<ApplyOutcome>;
  /**
   * The pending files some of whose statements ran, for an engine that
   * applies a file statement by statement; absent where a file runs whole
   * (PostgreSQL).
   * @param pending the pending files of the sets.
   */
  partlyApplied?(reader: BooksReader, sources: readonly string[], pending: readonly MigrationFile[]): Promise<PartlyAppliedMigration[]>;
}

/** The 1-based line of a 1-based character position in `text` (where an engine located an error). */
export function lineAt(text: string, position: number): number {
  let line = 1;
  for (let i = 0; i < position - 1 && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}
