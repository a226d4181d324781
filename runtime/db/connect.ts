/**
 * Connecting to the database (docs/database.md): the engine chosen by the
 * URL's scheme opens its pool, and a Kysely instance runs over its dialect.
 * Everything engine-specific stays behind `Database.engine`
 * (`runtime/db/engine.ts`, "Engines" in docs/database.md).
 */
import { Kysely } from 'kysely';
import { registerEngine } from './compiled-query.js';
import type { DatabaseEngine } from './engine.js';
import { openPostgres, probePostgres } from './engines/postgres/index.js';
import { openMysql, probeMysql } from './engines/mysql/index.js';
import { CodedError } from '../errors/coded-error.js';
import { DatabaseUnreachableError } from './errors.js';
import { redactUrl } from './redact-url.js';
import type { UntypedTables } from './any-kysely.js';

/** An open database: Kysely for queries, the engine for what depends on the server (docs/database.md "Engines"). */
export interface Database<DB = UntypedTables> {
  /** Kysely over the engine's pool; `DB` is the generated `Database` interface of the app. */
  readonly db: Kysely<DB>;
  /** The engine: its name and capabilities, statements on its pool, held connections, errors by kind. */
  readonly engine: DatabaseEngine;
  /** The connection URL with its password hidden, for messages. */
  readonly displayUrl: string;
  /**
   * Run `select 1`.
   * @throws the driver's error when the database does not answer.
   */
  ping(): Promise<void>;
  /** End the pool, whether or not Kysely ran a query (waits for checked-out connections to be released). Idempotent. */
  close(): Promise<void>;
}

/** Options of {@link connectDatabase}. */
export interface ConnectDatabaseOptions {
  /**
   * `postgres://user:password@host:port/database` (also `postgresql://`) for PostgreSQL;
   * `mysql://user:password@host:3306/database` (also `mariadb://`) for MySQL 8.0.16+ and MariaDB 10.6+
   * (docs/database.md "MySQL and MariaDB").
   */
  readonly url: string;
  /** Pool size (default 10). */
  readonly max?: number;
  /** The name the server shows for the connections (`application_name` on PostgreSQL, the `program_name` attribute on MySQL; default `bindery`). */
  readonly applicationName?: string;
  /** Check the connection (and read the server's version; on MySQL and MariaDB also check it: version, character set, strict mode) before returning (default true). */
  readonly verify?: boolean;
  /** Milliseconds to wait for a connection (default 10000). */
  readonly connectTimeoutMs?: number;
  /** What to do, ending the message of the {@link DatabaseUnreachableError} (default {@link UNREACHABLE_ADVICE}). */
  readonly unreachableAdvice?: string;
  /**
   * Errors of idle pooled connections (e.g. the server restarted), until
   * `close()` is called: connections failing while the pool ends them are
   * not lost. Default: ignored; the pool replaces the connection.
   */
  readonly onIdleError?: (error: Error) => void;
}

/** The advice of a {@link DatabaseUnreachableError} by default, by engine. */
const UNREACHABLE_ADVICE = {
  postgres: 'Check that the PostgreSQL server is up and reachable from here, and the URL (host, port, user, password, database).',
  mysql: 'Check that the MySQL or MariaDB server is up and reachable from here, and the URL (host, port, user, password, database).',
} as const;

/** The URL schemes bindery speaks, by engine family. */
const SCHEMES: Readonly<Record<string, keyof typeof UNREACHABLE_ADVICE>> = {
  postgres: 'postgres',
  postgresql: 'postgres',
  mysql: 'mysql',
  mariadb: 'mysql',
};

/**
 * Open the engine's pool and Kysely on `url`.
 *
 * @returns the open {@link Database}; close it with `close()`.
 * @throws {DatabaseUnreachableError} when the URL names no engine bindery speaks, or when `verify` is on and the server does not answer (the message shows the URL without its password and the driver's reason).
 * @throws {DatabaseVersionError} {DatabaseCharsetError} {DatabaseSqlModeError} when `verify` is on and a MySQL or MariaDB server is one bindery cannot use (too old, a database not in utf8mb4, sessions not strict).
 * @example
 *   const database = await connectDatabase<DB>({ url: process.env.DATABASE_URL! });
 *   const notes = await database.db.selectFrom('notes').selectAll().execute();
 *   await database.close();
 */
export async function connectDatabase<DB = UntypedTables>(options: ConnectDatabaseOptions): Promise<Database<DB>> {
  const displayUrl = redactUrl(options.url);
  const family = familyOf(options.url, displayUrl);
  const engine = openEngine(family, options);
  const db = new Kysely<DB>({ dialect: engine.dialect });
  registerEngine(db, engine);
  let closing: Promise<void> | undefined;
  const database: Database<DB> = {
    db,
    engine,
    displayUrl,
    async ping() {
      await engine.run('select 1');
    },
    close() {
      // Kysely ends the pool only when it ran a query itself; the migrator,
      // the jobs and `ping` use the engine directly, so the engine ends it
      // (once) — first, so that connections failing from now on are known
      // to be ours ending, not lost.
      closing ??= engine.close().then(() => db.destroy());
      return closing;
    },
  };
  if (options.verify ?? true) {
    try {
      if (engine.name === 'postgres') await probePostgres(engine);
      else await probeMysql(engine, displayUrl);
    } catch (error) {
      await database.close().catch(() => {});
      // A probe's coded error is the engine refusing the server (its version, its settings): it says what to fix.
      if (error instanceof CodedError) throw error;
      const reason = (error as Error).message || String(error);
      throw DatabaseUnreachableError.from(
        { url: displayUrl, reason, advice: options.unreachableAdvice ?? UNREACHABLE_ADVICE[family] },
        { cause: error },
      );
    }
  }
  return database;
}

/**
 * The engine family the URL's scheme names.
 * @throws {DatabaseUnreachableError} for a scheme bindery does not speak, naming the schemes it does.
 */
function familyOf(url: string, displayUrl: string): keyof typeof UNREACHABLE_ADVICE {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  const family = scheme !== undefined && Object.hasOwn(SCHEMES, scheme) ? SCHEMES[scheme] : undefined;
  if (family === undefined) {
    throw DatabaseUnreachableError.from({
      url: displayUrl,
      reason: `the scheme ${scheme === undefined ? '(none)' : `"${scheme}:"`} names no database engine bindery speaks`,
      advice: 'Give a postgres:// (or postgresql://) URL for PostgreSQL, or a mysql:// (or mariadb://) URL for MySQL or MariaDB.',
    });
  }
  return family;
}

/** The engine of the family, its pool open (no connection made yet). */
function openEngine(family: keyof typeof UNREACHABLE_ADVICE, options: ConnectDatabaseOptions) {
  const common = {
    url: options.url,
    max: options.max ?? 10,
    applicationName: options.applicationName ?? 'bindery',
    connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
    ...(options.onIdleError === undefined ? {} : { onIdleError: options.onIdleError }),
  };
  return family === 'postgres' ? openPostgres(common) : openMysql(common);
}
