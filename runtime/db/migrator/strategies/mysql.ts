/**
 * The migrator on MySQL and MariaDB (docs/database.md "Migrations per
 * engine", "When a migration fails"): DDL commits by itself, so a file
 * cannot roll back whole. Each file is split into statements
 * (`./statements.mysql.ts`: a statement ends with `;` at the end of a line)
 * and run one statement at a time; after each one its failures row records
 * how far the file got (`statements_done`, and `statements_checksum` of the
 * statements done), in the same transaction as the statement (a data change
 * and its progress commit together; a DDL statement commits by itself just
 * before). The file is recorded in `bindery_migrations` after its last
 * statement. A failing statement leaves the ones before it applied; its row
 * says which statement failed and why, and the next run resumes after the
 * statements done — unless they were edited since, which `migrate` refuses
 * as it refuses an applied file that changed.
 *
 * The books: `DATETIME(6)` instants (sessions run in UTC), `utf8mb4_bin`
 * keys, InnoDB.
 */
import type { DatabaseEngine, EngineConnection } from '../../engine.js';
import { classifyMysqlError } from '../../engines/mysql/errors.js';
import { migrationLabel, migrationText, type MigrationFile } from '../migration-set.js';
import { FAILURES_TABLE, MIGRATIONS_TABLE } from '../tables.js';
import { mysqlMigrationFailure } from './failure.mysql.js';
import { splitMysqlStatements, statementsChecksum, type MigrationStatement } from './statements.mysql.js';
import type { ApplyOutcome, MigrationStrategy, PartlyAppliedMigration } from './strategy.js';

const KEY = 'CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL';
const TABLE_OPTIONS = 'ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin';

const CREATE_MIGRATIONS = `CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE} (
  source VARCHAR(128) ${KEY},
  name VARCHAR(255) ${KEY},
  checksum VARCHAR(64) ${KEY},
  applied_at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  PRIMARY KEY (source, name)
) ${TABLE_OPTIONS}`;

/** The failures table, with how far a partly applied file got (`error` is empty while no statement failed). */
const CREATE_FAILURES = `CREATE TABLE IF NOT EXISTS ${FAILURES_TABLE} (
  source VARCHAR(128) ${KEY},
  name VARCHAR(255) ${KEY},
  checksum VARCHAR(64) ${KEY},
  error LONGTEXT NOT NULL,
  failed_at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  statements_done INT NOT NULL DEFAULT 0,
  statements_checksum VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL,
  PRIMARY KEY (source, name)
) ${TABLE_OPTIONS}`;

const RECORD_APPLIED = `INSERT INTO ${MIGRATIONS_TABLE} (source, name, checksum) VALUES (?, ?, ?)`;
const FORGET_FAILURE = `DELETE FROM ${FAILURES_TABLE} WHERE source = ? AND name = ?`;
/** A failure, or (with an empty `error`) the progress of a file not applied yet. */
const RECORD_FAILURE = `REPLACE INTO ${FAILURES_TABLE} (source, name, checksum, error, statements_done, statements_checksum) VALUES (?, ?, ?, ?, ?, ?)`;

function readPartial(sources: number): string {
  return `SELECT source, name, statements_done, statements_checksum, failed_at FROM ${FAILURES_TABLE} WHERE statements_done > 0 AND source IN (${Array.from({ length: sources }, () => '?').join(', ')})`;
}

/** The statements of a file, as run. */
export function fileStatements(file: MigrationFile): MigrationStatement[] {
  return splitMysqlStatements(migrationText(file.sql));
}

/** Record the file applied (its last statement ran), in the transaction of that statement. */
async function recordApplied(connection: EngineConnection, file: MigrationFile): Promise<void> {
  await connection.run(RECORD_APPLIED, [file.source, file.name, file.checksum]);
  await connection.run(FORGET_FAILURE, [file.source, file.name]);
}

/** Roll back the failing statement's transaction, record the failure (best effort), and say it. */
async function failed(
  engine: Pick<DatabaseEngine, 'name'>,
  connection: EngineConnection,
  file: MigrationFile,
  statements: readonly MigrationStatement[],
  index: number,
  resumedAfter: number,
  error: unknown,
): Promise<ApplyOutcome> {
  let connectionLost = classifyMysqlError(error)?.kind === 'connection-lost';
  if (!connectionLost) {
    await connection.run('ROLLBACK').catch(() => {
      connectionLost = true;
    });
  }
  const failure = mysqlMigrationFailure({ engine: engine.name, file, statements, failed: index, resumedAfter, error });
  if (!connectionLost) {
    const done = statementsChecksum(statements.slice(0, index));
    await connection.run(RECORD_FAILURE, [file.source, file.name, file.checksum, failure.record, index, done]).catch(() => {});
  }
  return { applied: false, error: failure.error, connectionLost };
}

/**
 * The MySQL and MariaDB strategy (see the module's comment).
 * @param engine the engine (`mysql` or `mariadb`, read when a message names it).
 */
export function mysqlMigrations(engine: Pick<DatabaseEngine, 'name'>): MigrationStrategy {
  return {
    async ensureTables(connection) {
      await connection.run(CREATE_MIGRATIONS);
      await connection.run(CREATE_FAILURES);
    },

    async apply(connection, file, statementsDone): Promise<ApplyOutcome> {
      const statements = fileStatements(file);
      if (statementsDone >= statements.length) {
        await connection.run('START TRANSACTION');
        await recordApplied(connection, file);
        await connection.run('COMMIT');
        return { applied: true };
      }
      for (let i = statementsDone; i < statements.length; i++) {
        await connection.run('START TRANSACTION');
        try {
          await connection.run(statements[i]!.text);
        } catch (error) {
          return failed(engine, connection, file, statements, i, statementsDone, error);
        }
        const done = i + 1;
        if (done === statements.length) await recordApplied(connection, file);
        else {
          const checksum = statementsChecksum(statements.slice(0, done));
          await connection.run(RECORD_FAILURE, [file.source, file.name, file.checksum, '', done, checksum]);
        }
        await connection.run('COMMIT');
      }
      return { applied: true };
    },

    async partlyApplied(reader, sources, pending): Promise<PartlyAppliedMigration[]> {
      if (sources.length === 0 || pending.length === 0 || !(await reader.tableExists(FAILURES_TABLE))) return [];
      const { rows } = await reader.run<{
        source: string;
        name: string;
        statements_done: number | string;
        statements_checksum: string | null;
        failed_at: Date;
      }>(readPartial(sources.length), sources);
      const files = new Map(pending.map((f) => [migrationLabel(f), f]));
      return rows.flatMap((row): PartlyAppliedMigration[] => {
        const file = files.get(migrationLabel(row));
        if (file === undefined) return [];
        const statements = fileStatements(file);
        const done = Number(row.statements_done);
        const nowChecksum = statements.length >= done ? statementsChecksum(statements.slice(0, done)) : '';
        const doneChecksum = row.statements_checksum ?? '';
        return [
          {
            source: row.source,
            name: row.name,
            statementsDone: done,
            statements: statements.length,
            since: new Date(row.failed_at),
            doneChecksum,
            nowChecksum,
            edited: nowChecksum !== doneChecksum,
          },
        ];
      });
    },
  };
}
