/**
 * Boot errors point the right way (docs/errors.md): the database error
 * gives advice that fits the environment, and a taken port names the
 * setting it came from, with its value.
 */
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp } from '../../../runtime/app/index.js';
import { generateAppKey } from '../../../runtime/config/app-key.js';
import { freePort } from '../../../runtime/support/free-port.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import slowApp from './fixtures/slow-app.js';

const start = (env: Record<string, string>) =>
  startApp(slowApp, { env: { APP_KEY: generateAppKey(), LOG_LEVEL: 'silent', ...env }, handleSignals: false, out: () => {} }).then(
    async (running) => {
      await running.close();
      throw new Error('expected the boot to fail');
    },
    (error: unknown) => error as Error & { code?: string },
  );

describe('startApp | an unreachable database', () => {
  it('in production: advice for a server of its own, never the embedded PostgreSQL (production refuses it)', async () => {
    const port = await freePort();
    const error = await start({ APP_ENV: 'production', DATABASE_URL: `postgres://app:secret@127.0.0.1:${port}/notes` });
    expect(error.code).toBe('BINDERY_DATABASE_UNREACHABLE');
    expect(error.message).toMatch(
      new RegExp(`^Cannot connect to the database at postgres://app:\\*\\*\\*@127\\.0\\.0\\.1:${port}/notes: `),
    );
    expect(error.message).toContain('Check that the PostgreSQL server is up and reachable from here, and DATABASE_URL');
    expect(error.message).not.toMatch(/embedded/i);
    expect(error.message).not.toContain('secret');
  });

  it('in development: start the server, fix DATABASE_URL, or unset it for the embedded PostgreSQL', async () => {
    const port = await freePort();
    const error = await start({ APP_ENV: 'development', DATABASE_URL: `postgres://app@127.0.0.1:${port}/notes` });
    expect(error.code).toBe('BINDERY_DATABASE_UNREACHABLE');
    expect(error.message).toMatch(/Start the server or fix DATABASE_URL \(unset it to use the embedded PostgreSQL\)\.$/);
  });
});

describe('startApp | a taken port names the setting that chose it', () => {
  let db: TestDatabase;
  let taken: Server;
  let port: number;
  beforeAll(async () => {
    db = await createTestDatabase('start_errors');
    taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '0.0.0.0', resolve));
    port = (taken.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => taken.close(resolve));
    await db?.drop();
  });

  it('PORT (HTTP_ADDR unset): PORT and its value, and the advice to change PORT', async () => {
    const error = await start({ DATABASE_URL: db.url, PORT: String(port) });
    expect(error.code).toBe('BINDERY_LISTEN_FAILED');
    expect(error.message).toBe(
      `Cannot listen on 0.0.0.0:${port} (PORT=${port}, HTTP_ADDR unset): the port is in use. Stop what listens there, or set PORT to a free port (or HTTP_ADDR to a host:port, which wins over PORT).`,
    );
  });

  it('HTTP_ADDR: named with the advice to change it', async () => {
    const error = await start({ DATABASE_URL: db.url, HTTP_ADDR: `127.0.0.1:${port}`, PORT: '1' });
    expect(error.message).toBe(
      `Cannot listen on 127.0.0.1:${port} (HTTP_ADDR): the port is in use. Stop what listens there, or set HTTP_ADDR to a free host:port.`,
    );
  });
});
