import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateAppKey } from '../../../runtime/config/app-key.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { BIN, runCli } from '../cli/run-cli.js';

const cwd = fileURLToPath(new URL('./fixtures', import.meta.url));

async function waitFor<T>(what: string, check: () => T | undefined, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('bindery serve | health, readiness and graceful shutdown', () => {
  let db: TestDatabase;
  let env: Record<string, string>;
  let child: ChildProcess | undefined;
  let stdout = '';
  let stderr = '';
  let exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  let url = '';

  beforeAll(async () => {
    db = await createTestDatabase('serve');
    env = { DATABASE_URL: db.url, APP_KEY: generateAppKey(), HTTP_ADDR: '127.0.0.1:0', LOG_LEVEL: 'silent', NO_COLOR: '1' };
    child = spawn(process.execPath, [BIN, 'serve', '--app', 'slow-app.ts'], {
      cwd,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr!.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    exit = new Promise((resolve) => child!.on('exit', (code, signal) => resolve({ code, signal })));
    url = await waitFor(
      `the server to print its URL (stdout: ${stdout}, stderr: ${stderr})`,
      () => /Serving slow_fixture at (http:\/\/127\.0\.0\.1:\d+)\n/.exec(stdout)?.[1],
    );
  });

  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exit;
    }
    await db.drop();
  });

  it('reports pending migrations at boot', () => {
    expect(stdout).toContain('1 migration is pending; run "bindery migrate" (GET /health/ready reports not ready until then).\n');
  });

  it('GET /health/live answers 200', async () => {
    const res = await fetch(`${url}/health/live`);
    expect(res.status).toBe(200);
  });

  it('GET /health/ready is not ready while a migration is pending, ready after "bindery migrate"', async () => {
    const before = await fetch(`${url}/health/ready`);
    expect(before.status).toBe(503);
    expect(await before.text()).toContain('1 pending');
    const migrate = await runCli(['migrate', '--app', 'slow-app.ts'], { cwd, env });
    expect(migrate.code).toBe(0);
    const after = await fetch(`${url}/health/ready`);
    expect(after.status).toBe(200);
    expect(await fetch(`${url}/things/count`).then((r) => r.json())).toEqual({ count: 2 });
  });

  it('on SIGTERM an in-flight request (holding a database query) finishes, then the process exits 0', async () => {
    const slow = fetch(`${url}/slow`).then(async (r) => ({ status: r.status, body: await r.json() }));
    await waitFor('the slow request to start', () => (stdout.includes('SLOW REQUEST STARTED') ? true : undefined));
    child!.kill('SIGTERM');
    await waitFor('the shutdown to begin', () => (stdout.includes('Received SIGTERM') ? true : undefined));
    expect(await slow).toEqual({ status: 200, body: { finished: true } });
    expect(await exit).toEqual({ code: 0, signal: null });
    expect(stdout).toContain('Received SIGTERM: shutting down, letting in-flight requests finish …\nStopped.\n');
    expect(stderr).toBe('');
  });
});
