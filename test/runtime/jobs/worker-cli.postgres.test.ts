/**
 * `bindery worker`, `bindery serve --worker`, `jobs:failed`, `schedule:list`
 * and `schedule:run` as processes, the way users run them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCli } from '../cli/run-cli.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { waitFor } from './wait-for.js';

const cwd = fileURLToPath(new URL('./fixtures/', import.meta.url));
const APP_KEY = `base64:${Buffer.alloc(32, 9).toString('base64')}`;

let database: TestDatabase;
let db: Kysely<any>;
const env = () => ({ DATABASE_URL: database.url, APP_KEY, LOG_LEVEL: 'silent', JOBS_POLL_INTERVAL: '200ms' });

beforeAll(async () => {
  database = await createTestDatabase('worker_cli');
  db = new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url, max: 2 }) }) });
  await sql`create table worker_marks (label text not null, via text not null)`.execute(db);
});
afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});

/** Start a long-running command; collect its output. */
function start(
  args: string[],
  extraEnv: Record<string, string> = {},
): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [BIN, ...args, '--app', 'worker-app.ts'], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', ...env(), ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => {
    out += c.toString();
  });
  child.stderr!.on('data', (c: Buffer) => {
    out += c.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return { child, output: () => out, exited };
}

const marks = async () => (await sql<{ label: string; via: string }>`select label, via from worker_marks order by label`.execute(db)).rows;

describe('bindery worker', () => {
  it('runs queued jobs until SIGTERM, then stops gracefully (exit 0)', async () => {
    const queued = await runCli(['schedule:run', 'fixture:nightly', '--app', 'worker-app.ts'], { cwd, env: env() });
    expect(queued).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Queued fixture:nightly as job \d+; a worker runs it\.\n$/) });
    await sql`select graphile_worker.add_job('fixture:mark', '{"bindery":1,"payload":{"label":"before-start"},"origin":{"actor":{"type":"system","id":""}}}'::json)`.execute(
      db,
    );
    const worker = start(['worker', '--concurrency', '2']);
    try {
      await waitFor(async () => (await marks()).some((m) => m.label === 'before-start'), 'the worker to run the job', 20_000);
      expect(worker.output()).toContain('Worker for worker_fixture running 2 tasks (fixture:mark, fixture:nightly); Ctrl-C stops it.');
      await waitFor(
        async () => (await sql<{ n: number }>`select count(*)::int as n from graphile_worker.jobs`.execute(db)).rows[0]!.n === 0,
        'the scheduled task run to finish',
      );
    } finally {
      worker.child.kill('SIGTERM');
    }
    expect(await worker.exited).toBe(0);
    expect(worker.output()).toContain('Received SIGTERM: stopping the worker, letting running jobs finish …\nStopped.\n');
    expect(await marks()).toEqual([{ label: 'before-start', via: 'job:fixture:mark' }]);
  }, 40_000);

  it('refuses a bad --concurrency (exit 2) and an unknown scheduled task (exit 1)', async () => {
    const bad = await runCli(['worker', '--concurrency', '0', '--app', 'worker-app.ts'], { cwd, env: env() });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--concurrency must be a whole number from 1 to 100');
    const unknown = await runCli(['schedule:run', 'fixture:nope', '--app', 'worker-app.ts'], { cwd, env: env() });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No scheduled task is named "fixture:nope". Known: fixture:nightly.');
  });
});

describe('bindery serve --worker, schedule:list, jobs:failed', () => {
  it('serves and runs jobs in one process', async () => {
    await sql`delete from worker_marks`.execute(db);
    const serve = start(['serve', '--worker'], { HTTP_ADDR: '127.0.0.1:0' });
    try {
      await waitFor(
        () =>
          /Serving worker_fixture at (http:\/\/\S+)/.test(serve.output()) &&
          serve.output().includes('Worker running in this process (2 tasks).'),
        'the server and worker to start',
        20_000,
      );
      const url = /Serving worker_fixture at (http:\/\/\S+)/.exec(serve.output())![1]!;
      const res = await fetch(`${url}/mark`, { method: 'POST' });
      expect(res.status).toBe(200);
      await waitFor(async () => (await marks()).length === 1, 'the job queued by the request to run');
      expect(await marks()).toEqual([{ label: 'from-serve', via: 'job:fixture:mark' }]);
    } finally {
      serve.child.kill('SIGTERM');
    }
    expect(await serve.exited).toBe(0);
  }, 40_000);

  it('lists scheduled tasks with their next run, and failed jobs with their error', async () => {
    const list = await runCli(['schedule:list', '--app', 'worker-app.ts'], { cwd, env: env() });
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(
      /^TASK\s+CRON \(UTC\)\s+NEXT RUN\s+DESCRIPTION\nfixture:nightly\s+0 3 \* \* \*\s+\d{4}-\d\d-\d\dT03:00:00\.000Z\s+Nothing, nightly\.\n$/,
    );
    const none = await runCli(['jobs:failed', '--app', 'worker-app.ts'], { cwd, env: env() });
    expect(none).toMatchObject({ code: 0, stdout: 'No failed jobs.\n' });
    await sql`select graphile_worker.permanently_fail_jobs(array[(select id from graphile_worker.add_job('fixture:mark', '{}'::json, max_attempts => 1))], 'Error: the disk is full')`.execute(
      db,
    );
    const failed = await runCli(['jobs:failed', '--app', 'worker-app.ts'], { cwd, env: env() });
    expect(failed.code).toBe(0);
    expect(failed.stdout).toMatch(
      /^ID\s+JOB\s+ATTEMPTS\s+STATE\s+LAST ERROR\n\d+\s+fixture:mark\s+1\/1\s+failed\s+Error: the disk is full\n$/,
    );
  });
});
