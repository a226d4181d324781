/**
 * How an engine applies a migration file and keeps the books: its failure
 * model (docs/database.md "Engines", "Migrations").
 *
 * The migrator's core is the same on every engine: it reads the files, takes
 * the `bindery!` lock on one held connection, reads what is applied and what
 * failed (plain SQL over the two tables of `../tables.ts`), refuses changed
 * files, and walks the pending files in order. What a failing file leaves
 * behind depends on the engine, so the rest is the engine's strategy, chosen
 * by `engine.name` (`./index.ts`):
 *
 * - **PostgreSQL** (`./postgres.ts`, `capabilities.transactionalDdl`): a
 *   file runs in one transaction together with its record, so a failing file
 *   leaves nothing behind but its row in the failures table, written after
 *   the rollback; the next run applies the file from its start.
 * - **MySQL / MariaDB** (not written yet): DDL commits by itself, so a file
 *   cannot roll back whole. Its strategy would split the file into statements
 *   and run them one by one, keeping after each one how far the file got (a
 *   `statements_done` column of its failures table, with the checksum of the
 *   statements done), and record the file once its last statement ran. A
 *   failure records the statement's number and line and the server's error
 *   (errno, SQLSTATE); the next run, when the statements already done are
 *   unchanged, resumes after them, and refuses (as for an applied file that
 *   changed) when they were edited. Its `MigrationFailedError` says which
 *   statements stay applied instead of "rolled back".
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
   * @throws the engine's error when the connection fails before the file ran.
   */
  apply(connection: EngineConnection, file: MigrationFile): Promise<ApplyOutcome>;
}

/** The 1-based line of a 1-based character position in `text` (where an engine located an error). */
export function lineAt(text: string, position: number): number {
  let line = 1;
  for (let i = 0; i < position - 1 && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}
