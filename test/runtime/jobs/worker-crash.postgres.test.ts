/**
 * A worker killed mid-job (SIGKILL, out of memory): its job runs again
 * within JOBS_WORKER_DEAD_AFTER + JOBS_HEARTBEAT_INTERVAL (+ the poll
 * interval) on another worker, not after graphile-worker's 4-hour lock
 * expiry; and the mail the job sent before the crash is not sent twice
 * (docs/jobs.md "When a worker dies", docs/mail.md "Idempotency keys").
 * Workers are `bindery worker` processes, as users run them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { BIN, runCli } from '../cli/run-cli.js';
import { startFakeSmtp, type FakeSmtp } from '../mail/fake-smtp.js';
import { waitFor } from './wait-for.js';

const cwd = fileURLToPath(new URL('./fixtures/', import.meta.url));
const APP_KEY = `base64:${Buffer.alloc(32, 7).toString('base64')}`;
const HEARTBEAT_MS = 200;
const DEAD_AFTER_MS = 2000;
const POLL_MS = 200;

let database: TestDatabase;
let db: Kysely<any>;
let smtp: FakeSmtp;
const env = (extra: Record<string, string> = {}) => ({
  DATABASE_URL: database.url,
  APP_KEY,
  LOG_LEVEL: 'warn',
  JOBS_POLL_INTERVAL: `${POLL_MS}ms`,
  JOBS_HEARTBEAT_INTERVAL: `${HEARTBEAT_MS}ms`,
  JOBS_WORKER_DEAD_AFTER: `${DEAD_AFTER_MS}ms`,
  ...extra,
});

beforeAll(async () => {
  database = await createTestDatabase('worker_crash');
  db = new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url, max: 2 }) }) });
  const migrated = await runCli(['migrate', '--app', 'crash-app.ts'], { cwd, env: env() });
  expect(migrated).toMatchObject({ code: 0 });
  await sql`create table crash_runs (label text not null, job_id text not null, attempt int not null, pid int not null, at timestamptz not null default clock_timestamp())`.execute(
    db,
  );
  await sql`create table crash_release (label text not null)`.execute(db);
  smtp = await startFakeSmtp();
});
afterAll(async () => {
  await smtp?.close();
  await db?.destroy();
  await database?.drop();
});
beforeEach(() => {
  smtp.received.length = 0;
});

interface Worker {
  readonly child: ChildProcess;
  output(): string;
  readonly exited: Promise<number | null>;
}

/** Start `bindery worker` for the fixture app; collect its output. */
function startWorker(extraEnv: Record<string, string> = {}): Worker {
  const child = spawn(process.execPath, [BIN, 'worker', '--app', 'crash-app.ts'], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', ...env(extraEnv) },
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

const runsOf = async (label: string) =>
  (
    await sql<{
      job_id: string;
      attempt: number;
      pid: number;
      at: Date;
    }>`select job_id, attempt, pid, at from crash_runs where label = ${label} order by at`.execute(db)
  ).rows;

const queue = (task: string, label: string, maxAttempts: number) =>
  sql`select graphile_worker.add_job(${task}, json_build_object('bindery', 1, 'payload', json_build_object('label', ${label}::text), 'origin', json_build_object('actor', json_build_object('type', 'system', 'id', ''))), max_attempts => ${maxAttempts}::int)`.execute(
    db,
  );

/** Run `task` on a first worker, SIGKILL it mid-job, start a second one and wait for the job to run there. */
async function killMidJob(task: string, label: string, options: { maxAttempts?: number; env?: Record<string, string> } = {}) {
  const workerEnv = options.env ?? {};
  const first = startWorker(workerEnv);
  let second: Worker | undefined;
  try {
    // Queued once the worker runs: its boot migrates graphile-worker's schema.
    await waitFor(() => first.output().includes('Worker for crash_fixture running'), 'the first worker to start', 30_000);
    await queue(task, label, options.maxAttempts ?? 3);
    await waitFor(async () => (await runsOf(label)).length === 1, `the first worker to start ${label}`, 30_000);
    first.child.kill('SIGKILL');
    await first.exited;
    const killedAt = Date.now();
    second = startWorker(workerEnv);
    await waitFor(() => second!.output().includes('Worker for crash_fixture running'), 'the second worker to start', 30_000);
    const readyAt = Date.now();
    if (options.maxAttempts === 1) {
      await waitFor(() => second!.output().includes('BINDERY_JOB_WORKER_LOST'), `the second worker to recover ${label}`, 30_000);
      return { first, second, runs: await runsOf(label), killedAt, readyAt, rerunAt: Date.now() };
    }
    await waitFor(async () => (await runsOf(label)).length === 2, `${label} to run again on the second worker`, 30_000);
    const rerunAt = Date.now();
    const runs = await runsOf(label);
    await sql`insert into crash_release (label) values (${label})`.execute(db);
    await waitFor(
      async () => (await sql`select 1 from graphile_worker.jobs where task_identifier = ${task}`.execute(db)).rows.length === 0,
      `${label} to complete`,
      10_000,
    );
    return { first, second, runs, killedAt, readyAt, rerunAt };
  } finally {
    if (first.child.exitCode === null) first.child.kill('SIGKILL');
    if (second) {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  }
}

describe('bindery worker | a worker killed mid-job', () => {
  it('its job runs again on another worker within JOBS_WORKER_DEAD_AFTER + JOBS_HEARTBEAT_INTERVAL, not after 4 hours', async () => {
    const { first, second, runs, killedAt, readyAt, rerunAt } = await killMidJob('fixture:wait', 'slow-1');
    expect(runs.map((r) => [r.attempt, r.pid])).toEqual([
      [1, first.child.pid],
      [2, second!.child.pid],
    ]);
    expect(runs[0]!.job_id).toBe(runs[1]!.job_id);
    // The documented bound (docs/jobs.md "When a worker dies"): JOBS_WORKER_DEAD_AFTER + JOBS_HEARTBEAT_INTERVAL + JOBS_POLL_INTERVAL
    // from the crash, or from the start of the worker that recovers it when it starts later; a second of slack for a loaded machine.
    const bound = Math.max(killedAt, readyAt) + DEAD_AFTER_MS + HEARTBEAT_MS + POLL_MS + 1000;
    expect(rerunAt).toBeLessThanOrEqual(bound);
    expect(second!.output()).toContain('"code":"BINDERY_JOB_WORKER_LOST"');
    expect(second!.output()).toMatch(/its 1 running job was unlocked: \d+ \(fixture:wait, attempt 1 of 3\) runs again/);
  }, 120_000);

  it('a job whose last attempt was cut short is not run again: it becomes a failed job naming the dead worker', async () => {
    const { second, runs } = await killMidJob('fixture:wait', 'last-1', { maxAttempts: 1 });
    expect(runs).toHaveLength(1);
    expect(second!.output()).toMatch(/its 1 running job was unlocked: \d+ \(fixture:wait, attempt 1 of 1\) failed: no attempts left/);
    const failed = await runCli(['jobs:failed', '--app', 'crash-app.ts'], { cwd, env: env() });
    expect(failed.code).toBe(0);
    expect(failed.stdout).toMatch(
      /fixture:wait\s+1\/1\s+failed\s+Error: the worker running it \(.+, pid \d+\) stopped: no heartbeat since \d{4}-/,
    );
  }, 120_000);
});

describe('bindery worker | the mail of a job killed after sending it', () => {
  it('is not sent again when the job runs again (SMTP: the sent-mail ledger)', async () => {
    const smtpEnv = { MAIL_DRIVER: 'smtp', MAIL_HOST: '127.0.0.1', MAIL_PORT: String(smtp.port), MAIL_FROM: 'App <app@example.test>' };
    const { runs } = await killMidJob('fixture:mail_then_wait', 'mail-smtp', { env: smtpEnv });
    expect(runs.map((r) => r.attempt)).toEqual([1, 2]);
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]!.data).toContain('For mail-smtp.');
    expect(smtp.received[0]!.data).toMatch(/^Message-ID: <[^>]+@example\.test>$/m);
  }, 120_000);

  it('is not kept twice (outbox: one row per idempotency key)', async () => {
    const { runs } = await killMidJob('fixture:mail_then_wait', 'mail-outbox', { env: { MAIL_DRIVER: 'outbox' } });
    expect(runs.map((r) => r.attempt)).toEqual([1, 2]);
    const kept = await sql<{ n: number }>`select count(*)::int as n from mail_outbox where text_body like '%mail-outbox%'`.execute(db);
    expect(kept.rows[0]!.n).toBe(1);
  }, 120_000);
});
