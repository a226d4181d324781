/**
 * One database server for a whole test run (docs/testing.md): an embedded
 * PostgreSQL, or with `BINDERY_TEST_ENGINE=mariadb` a throwaway MariaDB, in
 * a temporary folder, for a vitest global setup.
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '../db/embedded/index.js';
import { startMariadb } from './mysql/mariadb-server.js';
import { testEngine, type TestEngine } from './test-engine.js';

/** A server started by {@link startTestServer}. */
export interface TestServer {
  /**
   * `postgres://…@127.0.0.1:<port>/postgres`, also put in `BINDERY_TEST_DATABASE_URL`;
   * on MariaDB `mariadb://root@127.0.0.1:<port>`, also put in `BINDERY_TEST_MARIADB_URL`.
   */
  readonly url: string;
  /** The engine it runs. */
  readonly engine: TestEngine;
  /** Whether it was started here (false: `DATABASE_URL` or `MARIADB_URL` was used and is left alone). */
  readonly embedded: boolean;
  /** Stop the server started here and remove its folder (nothing for `DATABASE_URL` / `MARIADB_URL`). */
  stop(): Promise<void>;
}

/**
 * On PostgreSQL (the default): use `DATABASE_URL` when set, otherwise start
 * an embedded PostgreSQL in a fresh temporary folder; the URL goes in
 * `process.env.BINDERY_TEST_DATABASE_URL`. On MariaDB (`options.engine`,
 * default `BINDERY_TEST_ENGINE`): use `MARIADB_URL` when set, otherwise start
 * a throwaway MariaDB (`mariadbd` must be installed: Debian's
 * `mariadb-server-core`); the URL goes in `BINDERY_TEST_MARIADB_URL`. Test
 * workers started afterwards inherit it, and `createTestDatabase()` reads it.
 *
 * @throws {Error} when the server cannot start (see docs/database.md).
 * @example
 *   // test/global-setup.ts, listed in vitest.config.ts `test.globalSetup`
 *   import { startTestServer } from 'bindery/testing';
 *   export default async function setup() { const server = await startTestServer(); return () => server.stop(); }
 */
export async function startTestServer(options: { readonly engine?: TestEngine } = {}): Promise<TestServer> {
  const engine = options.engine ?? testEngine();
  return engine === 'mariadb' ? startMariadbServer() : startPostgresServer();
}

async function startPostgresServer(): Promise<TestServer> {
  const external = process.env['DATABASE_URL'];
  if (external !== undefined && external !== '') {
    process.env['BINDERY_TEST_DATABASE_URL'] = external;
    return { url: external, engine: 'postgres', embedded: false, stop: async () => {} };
  }
  const dir = await mkdtemp(join(tmpdir(), 'bindery-test-pg-'));
  // mkdtemp makes it 700; run as root, the server runs as "postgres" and must enter it (the data folder inside stays 700).
  await chmod(dir, 0o711);
  const server = await startEmbeddedPostgres({ dataDir: join(dir, 'data') });
  const url = server.url();
  process.env['BINDERY_TEST_DATABASE_URL'] = url;
  return {
    url,
    engine: 'postgres',
    embedded: true,
    async stop() {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function startMariadbServer(): Promise<TestServer> {
  // The test workers started afterwards make their databases on this engine.
  process.env['BINDERY_TEST_ENGINE'] ??= 'mariadb';
  const external = process.env['MARIADB_URL'] || mysqlServerOf(process.env['DATABASE_URL']);
  if (external !== undefined && external !== '') {
    process.env['BINDERY_TEST_MARIADB_URL'] = external;
    return { url: external, engine: 'mariadb', embedded: false, stop: async () => {} };
  }
  const server = await startMariadb();
  process.env['BINDERY_TEST_MARIADB_URL'] = server.url;
  return { url: server.url, engine: 'mariadb', embedded: true, stop: () => server.stop() };
}

/** The server part of a `mysql://` or `mariadb://` URL (its database left out: each test file makes its own), or `undefined`. */
function mysqlServerOf(url: string | undefined): string | undefined {
  if (url === undefined || !/^(mysql|mariadb):\/\//i.test(url)) return undefined;
  const server = new URL(url);
  server.pathname = '';
  server.search = '';
  return server.toString().replace(/\/$/, '');
}
