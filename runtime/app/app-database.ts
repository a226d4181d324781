/**
 * Opening an app's database (docs/database.md "Choosing the server"):
 * `DATABASE_URL` when set — its scheme chooses the engine (`postgres://`,
 * `postgresql://` for PostgreSQL; `mysql://`, `mariadb://` for MySQL or
 * MariaDB) and no embedded server is started — otherwise the embedded
 * PostgreSQL under `<root>/.data/postgres` with a database named after the
 * app, created when missing.
 */
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { CoreSettings } from '../config/core-settings.js';
import { connectDatabase, type Database } from '../db/connect.js';
import { createDatabaseIfMissing } from '../db/engines/postgres/server.js';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../db/embedded/embedded-postgres.js';
import type { App } from './define-app.js';

/** The open database of an app, and the embedded server behind it, if any. */
export interface AppDatabase {
  readonly database: Database;
  /** The embedded server, when `DATABASE_URL` is unset. */
  readonly embedded: EmbeddedPostgres | undefined;
  /** End the pool, then stop the embedded server (if this process started it). Idempotent. */
  close(): Promise<void>;
}

/** Folder of the embedded PostgreSQL's data, relative to the project root. */
export const EMBEDDED_DATA_DIR = '.data/postgres';

/** The URL schemes of MySQL and MariaDB servers (the rest are PostgreSQL's; `connectDatabase` refuses others). */
const MYSQL_SCHEMES: ReadonlySet<string> = new Set(['mysql:', 'mariadb:']);

/**
 * What to do when the server of `DATABASE_URL` does not answer, for its
 * engine: a PostgreSQL URL in development may be unset for the embedded
 * PostgreSQL; a MySQL or MariaDB one is that server's to start or fix.
 */
export function unreachableAdviceOf(url: URL, production: boolean): string {
  if (MYSQL_SCHEMES.has(url.protocol)) {
    return production
      ? 'Check that the MySQL or MariaDB server is up and reachable from here, and DATABASE_URL (host, port, user, password, database).'
      : 'Start the MySQL or MariaDB server or fix DATABASE_URL (host, port, user, password, database).';
  }
  return production
    ? 'Check that the PostgreSQL server is up and reachable from here, and DATABASE_URL (host, port, user, password, database).'
    : 'Start the server or fix DATABASE_URL (unset it to use the embedded PostgreSQL).';
}

/**
 * @param out progress text (embedded creation and crash recovery).
 * @throws {DatabaseUnreachableError} when the database does not answer (the advice names its engine).
 * @throws {DatabaseVersionError} | {DatabaseCharsetError} | {DatabaseSqlModeError} when a MySQL or MariaDB server is one bindery cannot use.
 * @throws {EmbeddedPostgresError} when the embedded server cannot be created or started.
 */
export async function openAppDatabase(
  app: App,
  settings: CoreSettings,
  log: FastifyBaseLogger,
  out: (text: string) => void,
): Promise<AppDatabase> {
  // Until the database closes (docs/database.md "Lost connections"); the logger writes the driver's error by its message and code, never its client.
  const onIdleError = (error: Error) => log.warn({ err: error }, `database connection lost (${error.message}); the pool replaces it`);
  const applicationName = `bindery:${app.name}`;
  if (settings.DATABASE_URL) {
    const unreachableAdvice = unreachableAdviceOf(settings.DATABASE_URL, settings.APP_ENV === 'production');
    const database = await connectDatabase({ url: settings.DATABASE_URL.toString(), applicationName, onIdleError, unreachableAdvice });
    return { database, embedded: undefined, close: () => database.close() };
  }
  const embedded = await startEmbeddedPostgres({
    dataDir: join(app.root, EMBEDDED_DATA_DIR),
    displayDir: EMBEDDED_DATA_DIR,
    onProgress: out,
  });
  try {
    if (await createDatabaseIfMissing(embedded.url('postgres'), app.name))
      out(`Created the database "${app.name}" in the embedded PostgreSQL.\n`);
    const unreachableAdvice = `The embedded PostgreSQL did not answer: see ${EMBEDDED_DATA_DIR}/bindery-postgres.log, or set DATABASE_URL to use another server.`;
    const database = await connectDatabase({ url: embedded.url(app.name), applicationName, onIdleError, unreachableAdvice });
    let closing: Promise<void> | undefined;
    return {
      database,
      embedded,
      close() {
        closing ??= database.close().finally(() => embedded.stop());
        return closing;
      },
    };
  } catch (error) {
    await embedded.stop().catch(() => {});
    throw error;
  }
}
