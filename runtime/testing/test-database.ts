/**
 * A fresh, empty database per test file (docs/testing.md): on PostgreSQL,
 * or on MariaDB with `BINDERY_TEST_ENGINE=mariadb`.
 */
import { randomBytes } from 'node:crypto';
import { createPostgresDatabase, dropPostgresDatabase } from '../db/engines/postgres/server.js';
import { createMysqlDatabase, dropMysqlDatabase, type MysqlDatabaseCharset } from './mysql/server.js';
import { engineOfUrl, testEngine, type TestEngine } from './test-engine.js';

/** A database made by {@link createTestDatabase}. */
export interface TestDatabase {
  /** Connection URL of the new database (`postgres://…/test_<random>`, `mariadb://…/test_<random>`). */
  readonly url: string;
  /** The database name. */
  readonly name: string;
  /** The engine it is on. */
  readonly engine: TestEngine;
  /** Drop the database, terminating its connections. Safe to call twice. */
  drop(): Promise<void>;
}

/** Options of {@link createTestDatabase}. */
export interface TestDatabaseOptions {
  /** The server (any database on it; its user may create databases), default {@link testServerUrl}. */
  readonly serverUrl?: string;
  /** Name prefix, default `test`; letters, digits and `_` only. */
  readonly prefix?: string;
  /** The engine; default the one `serverUrl`'s scheme names, else `BINDERY_TEST_ENGINE` (default `postgres`). */
  readonly engine?: TestEngine;
  /** On MariaDB, the database's character set and collation (default `utf8mb4`, `utf8mb4_bin`). */
  readonly mysql?: MysqlDatabaseCharset;
}

/**
 * The server tests make their databases on, for `engine` (default
 * `BINDERY_TEST_ENGINE`): `serverUrl` when given; on PostgreSQL
 * `BINDERY_TEST_DATABASE_URL`, else `DATABASE_URL`; on MariaDB
 * `BINDERY_TEST_MARIADB_URL`, else `MARIADB_URL`.
 *
 * @throws {Error} when none is set (start one in a vitest global setup with
 *   `startTestServer()` from `bindery/testing`, or set `DATABASE_URL` / `MARIADB_URL`).
 */
export function testServerUrl(serverUrl?: string, engine: TestEngine = testEngine()): string {
  const env = process.env;
  const url =
    serverUrl ??
    (engine === 'mariadb'
      ? (env['BINDERY_TEST_MARIADB_URL'] ?? env['MARIADB_URL'])
      : (env['BINDERY_TEST_DATABASE_URL'] ?? env['DATABASE_URL']));
  if (url === undefined || url === '') {
    const variable = engine === 'mariadb' ? 'MARIADB_URL' : 'DATABASE_URL';
    throw new Error(
      `bindery/testing: no ${engine === 'mariadb' ? 'MariaDB' : 'PostgreSQL'} server for tests: set ${variable}, or use startTestServer() in a vitest global setup (docs/testing.md)`,
    );
  }
  return url;
}

/**
 * Create an empty database with a random name (`<prefix>_<12 hex>`) on the
 * test server (see {@link testServerUrl}); its user must be allowed to
 * create databases. On MariaDB it is `utf8mb4` with the byte-exact
 * `utf8mb4_bin` collation, as bindery's MySQL tables are.
 *
 * @throws {Error} on a bad prefix, or when the server refuses the connection or `CREATE DATABASE`.
 * @example
 *   const database = await createTestDatabase();   // BINDERY_TEST_ENGINE=mariadb: a mariadb:// URL
 *   afterAll(() => database.drop());
 */
export async function createTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const engine = options.engine ?? (options.serverUrl === undefined ? testEngine() : engineOfUrl(options.serverUrl));
  const serverUrl = testServerUrl(options.serverUrl, engine);
  const prefix = options.prefix ?? 'test';
  if (!/^[a-z_][a-z0-9_]{0,40}$/i.test(prefix))
    throw new Error(`bindery/testing: database prefix "${prefix}" must be letters, digits and _`);
  const name = `${prefix}_${randomBytes(6).toString('hex')}`.toLowerCase();
  if (engine === 'mariadb') await createMysqlDatabase(serverUrl, name, options.mysql);
  else await createPostgresDatabase(serverUrl, name);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    engine,
    drop: async () => {
      if (engine === 'mariadb') await dropMysqlDatabase(serverUrl, name);
      else await dropPostgresDatabase(serverUrl, name);
    },
  };
}
