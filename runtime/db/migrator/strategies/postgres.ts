/**
 * The migrator on PostgreSQL (docs/database.md "Migrations", "Engines"):
 * DDL is transactional, so each file runs in one transaction together with
 * its record, and a failing file is rolled back whole; its failure is then
 * recorded outside the transaction, with PostgreSQL's position (as a line of
 * the file), SQLSTATE, detail and hint.
 */
import type { EngineConnection } from '../../engine.js';
import { postgresErrorDetail } from '../../engines/postgres/errors.js';
import { MigrationFailedError } from '../errors.js';
import { migrationLabel, type MigrationFile } from '../migration-set.js';
import { FAILURES_TABLE, MIGRATIONS_TABLE } from '../tables.js';
import { lineAt, type ApplyOutcome, type MigrationStrategy } from './strategy.js';

const CREATE_MIGRATIONS = `create table if not exists ${MIGRATIONS_TABLE} (
  source text not null,
  name text not null,
  checksum text not null,
  applied_at timestamptz not null default now(),
  primary key (source, name)
)`;

const CREATE_FAILURES = `create table if not exists ${FAILURES_TABLE} (
  source text not null,
  name text not null,
  checksum text not null,
  error text not null,
  failed_at timestamptz not null default now(),
  primary key (source, name)
)`;

const RECORD_APPLIED = `insert into ${MIGRATIONS_TABLE} (source, name, checksum) values ($1, $2, $3)`;
const FORGET_FAILURE = `delete from ${FAILURES_TABLE} where source = $1 and name = $2`;
const RECORD_FAILURE = `insert into ${FAILURES_TABLE} (source, name, checksum, error) values ($1, $2, $3, $4)
     on conflict (source, name) do update set checksum = excluded.checksum, error = excluded.error, failed_at = now()`;

/** The message of a failing file: PostgreSQL's message, SQLSTATE, detail and hint; the line of its position, when it gives one. */
function postgresMigrationFailure(file: MigrationFile, error: unknown): MigrationFailedError {
  const { position, code, detail, hint } = postgresErrorDetail(error);
  const line = position ? lineAt(file.sql, position) : undefined;
  let reason = (error as { message?: string } | null)?.message ?? String(error);
  if (code) reason += ` (SQLSTATE ${code})`;
  if (detail) reason += `; ${detail}`;
  if (hint) reason += `; hint: ${hint}`;
  return new MigrationFailedError(migrationLabel(file), line, reason, { cause: error });
}

/** One transaction per file, with its record; a failure rolled back, then recorded. */
export const postgresMigrations: MigrationStrategy = {
  async ensureTables(connection) {
    await connection.run(CREATE_MIGRATIONS);
    await connection.run(CREATE_FAILURES);
  },
  async apply(connection, file): Promise<ApplyOutcome> {
    await connection.run('begin');
    try {
      if (file.sql.trim() !== '') await connection.run(file.sql);
      await connection.run(RECORD_APPLIED, [file.source, file.name, file.checksum]);
      await connection.run(FORGET_FAILURE, [file.source, file.name]);
      await connection.run('commit');
      return { applied: true };
    } catch (error) {
      let connectionLost = false;
      await connection.run('rollback').catch(() => {
        connectionLost = true;
      });
      const failed = postgresMigrationFailure(file, error);
      if (!connectionLost) await recordFailure(connection, file, failed.reason).catch(() => {});
      return { applied: false, error: failed, connectionLost };
    }
  },
};

/** Record (or replace) the last failure of `file`, outside any transaction. */
async function recordFailure(connection: EngineConnection, file: MigrationFile, reason: string): Promise<void> {
  await connection.run(RECORD_FAILURE, [file.source, file.name, file.checksum, reason]);
}
