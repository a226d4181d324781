/**
 * A MySQL queue worker killed mid-job (SIGKILL, out of memory): its job runs
 * again within JOBS_WORKER_DEAD_AFTER + JOBS_HEARTBEAT_INTERVAL (+ the poll
 * interval) on another worker, under the same idempotency key; a job on its
 * last attempt becomes a failed job naming the dead worker (docs/jobs.md
 * "When a worker dies"). Workers are processes (fixtures/crash-worker.ts)
 * on the run's throwaway MariaDB.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../../runtime/db/connect.js';
import { listFailedJobs } from '../../../../runtime/jobs/index.js';
import { mysqlBackend } from '../../../../runtime/jobs/mysql/mysql-backend.js';
import { waitFor } from '../wait-for.js';
import { openQueueDatabase } from './queue-database.js';

const WORKER = fileURLToPath(new URL('./fixtures/crash-worker.ts', import.meta.url));
const HEARTBEAT_MS = 200;
const DEAD_AFTER_MS = 2000;
const POLL_MS = 200;

let close: () => Promise<void>;
let database: Database;

beforeAll(async () => {
  ({ database, close } = await openQueueDatabase('mysql_worker_crash'));
  await database.engine.run(
    'CREATE TABLE crash_runs (label VARCHAR(100) NOT NULL, job_id VARCHAR(20) NOT NULL, attempt INT NOT NULL, pid INT NOT NULL, at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6))',
  );
  await database.engine.run('CREATE TABLE crash_release (label VARCHAR(100) NOT NULL)');
});
afterAll(async () => {
  await close?.();
});

interface Worker {
  readonly child: ChildProcess;
  output(): string;
  readonly exited: Promise<number | null>;
}

function startWorker(): Worker {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      DATABASE_URL: database.engine.url,
      JOBS_POLL_INTERVAL_MS: String(POLL_MS),
      JOBS_HEARTBEAT_INTERVAL_MS: String(HEARTBEAT_MS),
      JOBS_WORKER_DEAD_AFTER_MS: String(DEAD_AFTER_MS),
    },
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
    }>`SELECT job_id, attempt, pid FROM crash_runs WHERE label = ${label} ORDER BY at`.execute(database.db)
  ).rows;

const queue = (label: string, maxAttempts: number) =>
  mysqlBackend.enqueue(database.db, {
    name: 'fixture:wait',
    payload: JSON.stringify({ bindery: 1, payload: { label }, origin: { actor: { type: 'system', id: '' } } }),
    maxAttempts,
  });

/** Run the job on a first worker, SIGKILL it mid-job, start a second one and wait for the job to run there (or fail there). */
async function killMidJob(label: string, maxAttempts: number) {
  const first = startWorker();
  let second: Worker | undefined;
  try {
    await waitFor(() => first.output().includes('crash worker running'), 'the first worker to start', 30_000);
    const id = await queue(label, maxAttempts);
    await waitFor(async () => (await runsOf(label)).length === 1, `the first worker to start ${label}`, 30_000);
    first.child.kill('SIGKILL');
    await first.exited;
    const killedAt = Date.now();
    second = startWorker();
    await waitFor(() => second!.output().includes('crash worker running'), 'the second worker to start', 30_000);
    const readyAt = Date.now();
    if (maxAttempts === 1) {
      await waitFor(() => second!.output().includes('BINDERY_JOB_WORKER_LOST'), `the second worker to recover ${label}`, 30_000);
      return { id, first, second, runs: await runsOf(label), killedAt, readyAt, rerunAt: Date.now() };
    }
    await waitFor(async () => (await runsOf(label)).length === 2, `${label} to run again on the second worker`, 30_000);
    const rerunAt = Date.now();
    const runs = await runsOf(label);
    await sql`INSERT INTO crash_release (label) VALUES (${label})`.execute(database.db);
    await waitFor(
      async () => (await sql`SELECT 1 FROM jobs_queue WHERE id = ${Number(id)}`.execute(database.db)).rows.length === 0,
      `${label} to complete`,
      10_000,
    );
    return { id, first, second, runs, killedAt, readyAt, rerunAt };
  } finally {
    if (first.child.exitCode === null) first.child.kill('SIGKILL');
    if (second) {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  }
}

describe('MySQL queue | a worker killed mid-job', () => {
  it('its job runs again on another worker within JOBS_WORKER_DEAD_AFTER + JOBS_HEARTBEAT_INTERVAL', async () => {
    const { id, first, second, runs, killedAt, readyAt, rerunAt } = await killMidJob('slow-1', 3);
    expect(runs.map((r) => [r.attempt, r.pid])).toEqual([
      [1, first.child.pid],
      [2, second!.child.pid],
    ]);
    expect(runs.map((r) => r.job_id)).toEqual([id, id]);
    // The documented bound, from the crash or from the start of the worker that recovers it when it starts later; a second of slack.
    const bound = Math.max(killedAt, readyAt) + DEAD_AFTER_MS + HEARTBEAT_MS + POLL_MS + 1000;
    expect(rerunAt).toBeLessThanOrEqual(bound);
    expect(second!.output()).toContain('"code":"BINDERY_JOB_WORKER_LOST"');
    expect(second!.output()).toMatch(/its 1 running job was unlocked: \d+ \(fixture:wait, attempt 1 of 3\) runs again/);
  }, 120_000);

  it('a job whose last attempt was cut short is not run again: it becomes a failed job naming the dead worker', async () => {
    const { id, second, runs } = await killMidJob('last-1', 1);
    expect(runs).toHaveLength(1);
    expect(second!.output()).toMatch(/its 1 running job was unlocked: \d+ \(fixture:wait, attempt 1 of 1\) failed: no attempts left/);
    const failed = (await listFailedJobs(database)).find((j) => j.id === id);
    expect(failed).toMatchObject({ name: 'fixture:wait', attempts: 1, maxAttempts: 1, permanent: true });
    expect(failed!.lastError).toMatch(/^Error: the worker running it \(.+, pid \d+\) stopped: no heartbeat since \d{4}-/);
  }, 120_000);
});
