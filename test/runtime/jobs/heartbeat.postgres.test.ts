/**
 * Worker heartbeats in one process (docs/jobs.md "When a worker dies"): a
 * running worker keeps a row naming the ID graphile-worker locks its jobs
 * under, removes it when it stops, and unlocks the jobs of a worker whose row
 * is older than JOBS_WORKER_DEAD_AFTER; the settings check. The SIGKILLed
 * `bindery worker` is in worker-crash.postgres.test.ts.
 */
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, defineApp, type TestApp } from '../../../runtime/app/index.js';
import { loadSettings } from '../../../runtime/config/load-settings.js';
import { defineJob, jobs, startWorker, type Queue, type RunningWorker } from '../../../runtime/jobs/index.js';
import { jobsSettings } from '../../../runtime/jobs/jobs-step.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { waitFor } from './wait-for.js';

const ran: { marker: string; attempt: number; lockedBy: string | null }[] = [];

const beat = defineJob<{ marker: string }>({
  name: 'test:beat',
  async handle({ marker }, ctx) {
    const row = await sql<{
      locked_by: string | null;
    }>`select locked_by from graphile_worker.jobs where id = ${ctx.job.id}::bigint`.execute(ctx.services.db);
    ran.push({ marker, attempt: ctx.job.attempt, lockedBy: row.rows[0]?.locked_by ?? null });
  },
});

const app = defineApp({
  name: 'heartbeat_test',
  root: fileURLToPath(new URL('.', import.meta.url)),
  routes: [],
  handlers: {},
  migrations: [],
  setup: [
    jobs({
      jobs: [beat],
    }),
  ],
});

let database: TestDatabase;
let t: TestApp;
let worker: RunningWorker;
const HEARTBEAT_MS = 100;
const DEAD_AFTER_MS = 1000;

const heartbeats = async () =>
  (
    await sql<{
      id: string;
      backend: string;
      lock_ids: string[];
      pid: number;
      seen_at: Date;
    }>`select id, backend, lock_ids, pid, seen_at from jobs_worker_heartbeats order by started_at`.execute(t.db)
  ).rows;

beforeAll(async () => {
  database = await createTestDatabase('heartbeat');
  t = await createTestApp(app, { databaseUrl: database.url, env: { JOBS_POLL_INTERVAL: '200ms' } });
  worker = await startWorker(t.running.services, { heartbeatIntervalMs: HEARTBEAT_MS, deadAfterMs: DEAD_AFTER_MS });
});
afterAll(async () => {
  await t?.close();
  await database?.drop();
});

describe('worker heartbeat | a running worker', () => {
  it('keeps a row naming the lock its jobs run under, renewed every interval', async () => {
    await waitFor(async () => (await heartbeats()).length === 1, 'the heartbeat row');
    const [row] = await heartbeats();
    expect(row).toMatchObject({ backend: 'graphile-worker', pid: process.pid });
    await (t.running.services.queue as Queue).add(beat, { marker: 'lock' });
    await waitFor(() => ran.some((r) => r.marker === 'lock'), 'the job to run');
    const lockedBy = ran.find((r) => r.marker === 'lock')!.lockedBy;
    expect(lockedBy).toMatch(/^pool-/);
    expect(row!.lock_ids).toContain(lockedBy);
    await waitFor(async () => (await heartbeats())[0]!.seen_at.getTime() > row!.seen_at.getTime(), 'the next beat');
  });

  it('unlocks the jobs of a worker whose heartbeat is older than JOBS_WORKER_DEAD_AFTER, and they run again', async () => {
    // A worker that died mid-job: its job locked under its pool ID (attempt 1 counted), its row a minute old.
    const { rows } = await sql<{
      id: string;
    }>`select id::text as id from graphile_worker.add_job('test:beat', '{"marker":"orphan"}'::json, run_at => now() + interval '1 hour')`.execute(
      t.db,
    );
    const id = rows[0]!.id;
    await sql`update graphile_worker._private_jobs set locked_by = 'pool-dead', locked_at = now(), attempts = 1, run_at = now() where id = ${id}::bigint`.execute(
      t.db,
    );
    await sql`insert into jobs_worker_heartbeats (id, backend, lock_ids, host, pid, seen_at) values ('worker-dead', 'graphile-worker', array['pool-dead'], 'gone', 1, now() - interval '1 minute')`.execute(
      t.db,
    );
    // A row of another backend is left to that backend's workers.
    await sql`insert into jobs_worker_heartbeats (id, backend, lock_ids, host, pid, seen_at) values ('worker-other', 'mysql', array['x'], 'gone', 2, now() - interval '1 minute')`.execute(
      t.db,
    );
    await waitFor(() => ran.some((r) => r.marker === 'orphan'), 'the orphaned job to run again', 10_000);
    expect(ran.find((r) => r.marker === 'orphan')).toMatchObject({ attempt: 2, lockedBy: expect.stringMatching(/^pool-/) });
    expect((await heartbeats()).map((r) => r.id).sort()).toEqual([expect.stringMatching(/^worker-[0-9a-f]{16}$/), 'worker-other'].sort());
  });

  it('removes its row when it stops cleanly', async () => {
    await sql`delete from jobs_worker_heartbeats where id = 'worker-other'`.execute(t.db);
    await worker.stop();
    expect(await heartbeats()).toEqual([]);
  });
});

describe('worker heartbeat | settings', () => {
  const problems = (env: Record<string, string>) => {
    try {
      loadSettings(jobsSettings, env);
      return [];
    } catch (error) {
      return (error as { problems: { message: string }[] }).problems.map((p) => p.message);
    }
  };

  it('defaults to a 10 s heartbeat and a 1 min threshold; the threshold must be at least 3 heartbeats', () => {
    expect(loadSettings(jobsSettings, {})).toMatchObject({ JOBS_HEARTBEAT_INTERVAL: 10_000, JOBS_WORKER_DEAD_AFTER: 60_000 });
    expect(problems({ JOBS_HEARTBEAT_INTERVAL: '200ms', JOBS_WORKER_DEAD_AFTER: '2s' })).toEqual([]);
    expect(problems({ JOBS_HEARTBEAT_INTERVAL: '30s', JOBS_WORKER_DEAD_AFTER: '1m' })).toEqual([
      expect.stringMatching(/JOBS_WORKER_DEAD_AFTER must be at least 3 times JOBS_HEARTBEAT_INTERVAL \(90000 ms\)/),
    ]);
    expect(problems({ JOBS_WORKER_DEAD_AFTER: '10ms' })).toEqual([expect.stringMatching(/^JOBS_WORKER_DEAD_AFTER="10ms"/)]);
  });
});
