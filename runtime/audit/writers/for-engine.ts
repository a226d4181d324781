/**
 * Choosing the audit log's writer strategy by the database engine's name
 * (docs/audit.md "Engines").
 */
import type { DatabaseEngine } from '../../db/engine.js';
import { AuditEngineError } from '../errors.js';
import { mariadbWriter, mysqlWriter } from './mysql.js';
import { postgresWriter } from './postgres.js';
import type { AuditWriter } from './writer.js';

/**
 * The writer strategy of `engine` (by `engine.name`): `postgres` has
 * PostgreSQL's (writers/postgres.ts), `mysql` and `mariadb` MySQL's
 * (writers/mysql.ts).
 * @throws {AuditEngineError} `BINDERY_AUDIT_ENGINE_UNSUPPORTED`, naming the engine, for any other engine.
 * @example const writer = writerFor(database.engine); // postgresWriter
 */
export function writerFor(engine: Pick<DatabaseEngine, 'name'>): AuditWriter {
  switch (engine.name) {
    case 'postgres':
      return postgresWriter;
    case 'mysql':
      return mysqlWriter;
    case 'mariadb':
      return mariadbWriter;
    default:
      throw new AuditEngineError(
        `The audit log has no writer for the database engine "${engine.name}": its single-row and bulk writes, history and prune are written for PostgreSQL, MySQL and MariaDB (docs/audit.md "Engines"). Use a postgres://, mysql:// or mariadb:// database for an app with audit().`,
      );
  }
}
