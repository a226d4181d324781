/**
 * The access log and trace IDs in error logs, as `bindery serve` writes them
 * (docs/observability.md "The access log"), with the OTLP receiver
 * unreachable: requests are neither slowed nor failed, and one warning says
 * spans are being dropped.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateAppKey } from '../../../runtime/config/app-key.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { BIN } from '../cli/run-cli.js';
import { waitFor } from '../jobs/wait-for.js';

const cwd = fileURLToPath(new URL('./fixtures', import.meta.url));

/** A port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let db: TestDatabase;
let child: ChildProcess | undefined;
let stdout = '';
let url = '';

/** The JSON log lines written so far. */
const lines = (): Array<Record<string, unknown>> =>
  stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

beforeAll(async () => {
  db = await createTestDatabase('request_log');
  child = spawn(process.execPath, [BIN, 'serve', '--app', 'logged-app.ts'], {
    cwd,
    env: {
      PATH: process.env.PATH ?? '',
      NO_COLOR: '1',
      DATABASE_URL: db.url,
      APP_KEY: generateAppKey(),
      APP_ENV: 'production',
      HTTP_ADDR: '127.0.0.1:0',
      LOG_LEVEL: 'info',
      HTTP_ACCESS_LOG: 'true',
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${await closedPort()}`,
      OTEL_BSP_SCHEDULE_DELAY: '50',
      OTEL_EXPORTER_OTLP_TIMEOUT: '300',
      OTEL_METRICS_EXPORTER: 'none',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr!.on('data', (c: Buffer) => {
    stdout += c.toString();
  });
  await waitFor(
    () => /Serving logged_fixture at (http:\/\/127\.0\.0\.1:\d+)/.test(stdout),
    `the server to start (output: ${stdout})`,
    30_000,
  );
  url = /Serving logged_fixture at (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)![1]!;
}, 60_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGTERM');
    await new Promise((resolve) => child!.once('exit', resolve));
  }
  await db?.drop();
});

describe('HTTP_ACCESS_LOG=true | one line per request, with the OTLP receiver down', () => {
  it('writes method, route, status, duration, request ID, trace ID and user ID; requests stay fast', async () => {
    const started = performance.now();
    for (let i = 0; i < 20; i++) expect((await fetch(`${url}/hello?secret=not-logged`)).status).toBe(200);
    // Twenty requests against a receiver that refuses every export: nothing waits for it.
    expect(performance.now() - started).toBeLessThan(5000);
    await waitFor(() => lines().filter((l) => l['path'] === '/hello').length === 20, 'twenty access lines');
    const line = lines().find((l) => l['path'] === '/hello')!;
    expect(line).toMatchObject({
      level: 30,
      method: 'GET',
      route: '/hello',
      route_name: 'hello',
      status: 200,
      duration_ms: expect.any(Number),
      request_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      trace_id: expect.stringMatching(/^[0-9a-f]{32}$/),
      user_id: null,
      msg: expect.stringMatching(/^GET \/hello 200 \d+\.\d ms$/),
    });
    expect(stdout).not.toContain('not-logged');
  });

  it('the error line of a 500 carries the trace ID of its access line; the problem details keep request_id', async () => {
    const res = await fetch(`${url}/boom`, { headers: { accept: 'application/json' } });
    expect(res.status).toBe(500);
    const requestId = res.headers.get('x-request-id');
    expect(((await res.json()) as { request_id?: string }).request_id).toBe(requestId);
    await waitFor(() => lines().some((l) => l['request_id'] === requestId), 'the access line of /boom');
    const access = lines().find((l) => l['request_id'] === requestId)!;
    const error = lines().find((l) => l['reqId'] === requestId && l['level'] === 50)!;
    expect(error).toMatchObject({ trace_id: access['trace_id'], span_id: expect.stringMatching(/^[0-9a-f]{16}$/) });
    expect(String(error['msg'])).toContain('the boom route always fails');
    expect(access).toMatchObject({ status: 500, route: '/boom' });
  });

  it('a client that goes away: logged as 499 once the handler is done', async () => {
    const controller = new AbortController();
    const pending = fetch(`${url}/slow`, { signal: controller.signal }).catch(() => 'aborted');
    await waitFor(() => stdout.includes('SLOW REQUEST STARTED'), 'the slow handler to start');
    controller.abort();
    expect(await pending).toBe('aborted');
    await waitFor(() => lines().some((l) => l['path'] === '/slow'), 'the access line of /slow');
    expect(lines().find((l) => l['path'] === '/slow')).toMatchObject({
      status: 499,
      route: '/slow',
      trace_id: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
  });

  it('says once that spans cannot be exported, and goes on serving', async () => {
    await waitFor(() => lines().some((l) => l['code'] === 'BINDERY_TELEMETRY_EXPORT_FAILED'), 'the export warning', 15_000);
    const warnings = lines().filter((l) => l['code'] === 'BINDERY_TELEMETRY_EXPORT_FAILED');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 40, url: expect.stringMatching(/\/v1\/traces$/) });
    expect(String(warnings[0]!['msg'])).toMatch(/^cannot export spans to http:\/\/127\.0\.0\.1:\d+\/v1\/traces/);
    expect((await fetch(`${url}/hello`)).status).toBe(200);
  });
});
