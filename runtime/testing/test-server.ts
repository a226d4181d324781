/**
 * One PostgreSQL server for a whole test run (docs/testing.md): an embedded
 * PostgreSQL in a temporary folder, for a vitest global setup.
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '../db/embedded/index.js';

/** A server started by {@link startTestServer}. */
export interface TestServer {
  /** `postgres://…@127.0.0.1:<port>/postgres`; also put in `BINDERY_TEST_DATABASE_URL`. */
  readonly url: string;
  /** Whether it was started here (false: `DATABASE_URL` was used and is left alone). */
  readonly embedded: boolean;
  /** Stop the embedded server and remove its folder (nothing for `DATABASE_URL`). */
  stop(): Promise<void>;
}

/**
 * Use `DATABASE_URL` when set; otherwise start an embedded PostgreSQL in a
 * fresh temporary folder. Either way the URL is put in
 * `process.env.BINDERY_TEST_DATABASE_URL`, which test workers started
 * afterwards inherit and `createTestDatabase()` reads.
 *
 * @throws {Error} when the embedded server cannot start (see docs/database.md).
 * @example
 *   // test/global-setup.ts, listed in vitest.config.ts `test.globalSetup`
 *   import { startTestServer } from 'bindery/testing';
 *   export default async function setup() { const server = await startTestServer(); return () => server.stop(); }
 */
export async function startTestServer(): Promise<TestServer> {
  const external = process.env['DATABASE_URL'];
  if (external !== undefined && external !== '') {
    process.env['BINDERY_TEST_DATABASE_URL'] = external;
    return { url: external, embedded: false, stop: async () => {} };
  }
  const dir = await mkdtemp(join(tmpdir(), 'bindery-test-pg-'));
  // mkdtemp makes it 700; run as root, the server runs as "postgres" and must enter it (the data folder inside stays 700).
  await chmod(dir, 0o711);
  const server = await startEmbeddedPostgres({ dataDir: join(dir, 'data') });
  const url = server.url();
  process.env['BINDERY_TEST_DATABASE_URL'] = url;
  return {
    url,
    embedded: true,
    async stop() {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
