/**
 * Ctrl-C of `bindery serve --worker` in development, on the embedded
 * PostgreSQL (docs/boot.md "Shutdown"): the connections the app ends at
 * shutdown are not reported as lost, and every line the process writes is
 * readable — progress lines and log lines alike, no JSON
 * (docs/observability.md "Logs").
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateAppKey } from '../../../runtime/config/app-key.js';
import { BIN } from '../cli/run-cli.js';

const runtime = (path: string) => pathToFileURL(fileURLToPath(new URL(`../../../runtime/${path}`, import.meta.url))).href;

/** An app with a route that queues a job, the worker and the access log. */
const APP = `import { fileURLToPath } from 'node:url';
import { defineApp } from '${runtime('app/index.js')}';
import { defineJob, jobs } from '${runtime('jobs/index.js')}';
import { observability } from '${runtime('observability/index.js')}';
const nap = defineJob({ name: 'app:nap', payload: (raw) => raw, async handle() { await new Promise((r) => setTimeout(r, 300)); } });
export default defineApp({
  name: 'quiet_shutdown',
  root: fileURLToPath(new URL('..', import.meta.url)),
  routes: [{ name: 'nap', method: 'POST', path: '/nap', group: null, middleware: [], result: 'noContent', fields: [], validate: null, output: null, origin: 'app/main.ts' }],
  handlers: { async nap(_input, ctx) { await ctx.services.queue.add(nap, {}); } },
  migrations: [],
  setup: [observability(), jobs({ jobs: [nap] })],
});
`;

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'bindery-shutdown-'));
  await chmod(root, 0o755); // as root, the embedded PostgreSQL runs as "postgres", which must enter the folder
  await mkdir(join(root, 'app'));
  await writeFile(join(root, 'package.json'), '{ "type": "module", "private": true }\n');
  await writeFile(join(root, 'app/main.ts'), APP);
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const APP_KEY = generateAppKey();
const ENV = {
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '',
  NO_COLOR: '1',
  APP_KEY,
  HTTP_ADDR: '127.0.0.1:0',
  LOG_LEVEL: 'info',
  HTTP_ACCESS_LOG: 'true',
  DEV_DASHBOARD: 'false',
};

/** Migrate (as a deploy does before serving), serve with the worker, run `before`, send SIGINT; the whole output and the exit code. */
async function serveThenInterrupt(before: (url: string) => Promise<void>): Promise<{ code: number | null; output: string }> {
  const migrated = spawnSync(process.execPath, [BIN, 'migrate'], { cwd: root, env: ENV, encoding: 'utf8' });
  expect(migrated.status, `${migrated.stdout}${migrated.stderr}`).toBe(0);
  const child = spawn(process.execPath, [BIN, 'serve', '--worker'], {
    cwd: root,
    env: ENV,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => {
    output += c.toString();
  });
  child.stderr.on('data', (c: Buffer) => {
    output += c.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  try {
    const deadline = Date.now() + 60_000;
    while (!/Worker running in this process/.test(output)) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the app did not start:\n${output}`);
      await new Promise((r) => setTimeout(r, 25));
    }
    await before(/Serving quiet_shutdown at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)![1]!);
    child.kill('SIGINT');
    return { code: await exited, output };
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

function expectQuietAndReadable(run: { code: number | null; output: string }): void {
  expect(run.code, run.output).toBe(0);
  expect(run.output).toContain('Received SIGINT: shutting down, letting in-flight requests finish …\nStopped.\n');
  const lines = run.output.split('\n');
  expect(lines.filter((l) => /connection (lost|failed)|WARN|ERROR/.test(l))).toEqual([]);
  expect(lines.filter((l) => l.trimStart().startsWith('{'))).toEqual([]);
  expect(Math.max(...lines.map((l) => l.length))).toBeLessThan(400);
}

describe('bindery serve --worker | Ctrl-C on the embedded PostgreSQL', () => {
  it('right after the start: exits 0, nothing reported as lost, no JSON line', async () => {
    expectQuietAndReadable(await serveThenInterrupt(async () => {}));
  }, 90_000);

  it('after requests queued jobs, with connections busy and idle: the same', async () => {
    const run = await serveThenInterrupt(async (url) => {
      for (let i = 0; i < 4; i++) expect((await fetch(`${url}/nap`, { method: 'POST' })).status).toBe(204);
      await new Promise((r) => setTimeout(r, 400)); // some jobs done (their connections idle), some running
    });
    expectQuietAndReadable(run);
    expect(run.output).toMatch(/\] INFO: POST \/nap 204 [\d.]+ ms \{/); // the access log, readable
  }, 90_000);
});
