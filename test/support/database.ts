/**
 * A fresh, empty database per test file (or per test) on the run's servers
 * (./global-setup.ts): `createTestDatabase` on the engine of the run's
 * project — PostgreSQL, or MariaDB with `BINDERY_TEST_ENGINE=mariadb` (the
 * `mariadb` project of vitest.config.ts) — and, whatever the project,
 * `createTestPostgresDatabase` and `createTestMariaDatabase` for tests of
 * one engine.
 *
 * @example
 *   const db = await createTestDatabase();
 *   afterAll(() => db.drop());
 *   // db.url is a postgres:// URL of an empty database (a mariadb:// one in the mariadb project)
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { createMysqlDatabase, dropMysqlDatabase, onMysqlServer } from '../../runtime/testing/mysql/server.js';
import { testEngine, type TestEngine } from '../../runtime/testing/test-engine.js';

export { testEngine, type TestEngine };

export interface TestDatabase {
  /** Connection URL of the new database. */
  readonly url: string;
  /** Database name. */
  readonly name: string;
  /** The engine it is on. */
  readonly engine: TestEngine;
  /** Drop the database (terminating its connections). */
  drop(): Promise<void>;
}

/** The run's server of the project's engine (`BINDERY_TEST_ENGINE`): `inject('pgUrl')` or `inject('mariadbUrl')`. */
export function testServerUrl(): string {
  return testEngine() === 'mariadb' ? inject('mariadbUrl') : inject('pgUrl');
}

/** Create an empty database with a random name on the server of the project's engine (see {@link testEngine}). */
export function createTestDatabase(prefix = 'test'): Promise<TestDatabase> {
  return testEngine() === 'mariadb' ? createTestMariaDatabase(prefix) : createTestPostgresDatabase(prefix);
}

/** Create an empty database with a random name on the run's PostgreSQL server, whatever the project's engine. */
export async function createTestPostgresDatabase(prefix = 'test'): Promise<TestDatabase> {
  const serverUrl = inject('pgUrl');
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    engine: 'postgres',
    async drop() {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

/** Options of {@link createTestMariaDatabase}. */
export interface TestMariaDatabaseOptions {
  /** The database's character set (default `utf8mb4`). */
  readonly charset?: string;
  /** Its collation (default `utf8mb4_bin`; the charset's own default when another charset is given). */
  readonly collation?: string;
  /** The URL's scheme (default `mariadb`). */
  readonly scheme?: 'mariadb' | 'mysql';
}

/**
 * Create an empty database with a random name on the run's MariaDB server (`inject('mariadbUrl')`), whatever the project's engine.
 * @returns its `mariadb://` URL (or `mysql://`), its name and `drop()`.
 */
export async function createTestMariaDatabase(prefix = 'test', options: TestMariaDatabaseOptions = {}): Promise<TestDatabase> {
  const serverUrl = inject('mariadbUrl');
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await createMysqlDatabase(serverUrl, name, {
    ...(options.charset === undefined ? {} : { charset: options.charset }),
    ...(options.collation === undefined ? {} : { collation: options.collation }),
  });
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const text = url.toString().replace(/^[a-z]+:/, `${options.scheme ?? 'mariadb'}:`);
  return {
    url: text,
    name,
    engine: 'mariadb',
    async drop() {
      await dropMysqlDatabase(serverUrl, name);
    },
  };
}

/** Run one statement on the MariaDB server of `serverUrl`, over a connection of its own. @returns its rows (none for a statement that returns none). */
export const onMariaServer: (serverUrl: string, statement: string) => Promise<Record<string, unknown>[]> = onMysqlServer;
