/**
 * Two workers on one MySQL queue (docs/jobs.md "Queue backends"): each on
 * its own pool, as two processes would be, claiming with `SELECT … FOR
 * UPDATE SKIP LOCKED` under contention — every job runs exactly once, and
 * both workers take part.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../../../../runtime/db/connect.js';
import { defineJob, type RunningWorker } from '../../../../runtime/jobs/index.js';
import type { JobsRuntime } from '../../../../runtime/jobs/jobs-runtime.js';
import { waitFor } from '../wait-for.js';
import { captureLog, jobsRuntimeOn, openQueueDatabase } from './queue-database.js';

const JOBS = 200;
const runs: { n: number; worker: string; attempt: number }[] = [];

const work = defineJob<{ n: number }>({
  name: 'test:work',
  async handle({ n }, ctx) {
    runs.push({ n, worker: String((ctx.services as unknown as { label: string }).label), attempt: ctx.job.attempt });
    await new Promise((resolve) => setTimeout(resolve, 5));
  },
});

let close: () => Promise<void>;
let database: Database;
let second: Database;
const workers: RunningWorker[] = [];

/** A worker process's runtime on `on`, its services labelled so the job knows who ran it. */
function runtimeOf(on: Database, label: string): JobsRuntime {
  return jobsRuntimeOn(on, [work], { log: captureLog().log, concurrency: 4, pollIntervalMs: 50, services: { label } });
}

beforeAll(async () => {
  ({ database, close } = await openQueueDatabase('mysql_concurrency'));
  second = await connectDatabase({ url: database.engine.url, max: 10 });
});
afterAll(async () => {
  for (const worker of workers) await worker.stop();
  await second?.close();
  await close?.();
});

describe('MySQL queue | two workers under contention', () => {
  it(`runs each of ${JOBS} jobs exactly once`, async () => {
    const a = runtimeOf(database, 'a');
    const b = runtimeOf(second, 'b');
    workers.push(await a.startWorker(), await b.startWorker());
    await database.db.transaction().execute(async (tx) => {
      for (let n = 0; n < JOBS; n++) await a.queue.add(work, { n }, { tx });
    });
    await waitFor(() => runs.length >= JOBS, `the ${JOBS} jobs to run`, 60_000);
    await waitFor(
      async () => Number((await sql<{ c: number }>`SELECT COUNT(*) AS c FROM jobs_queue`.execute(database.db)).rows[0]!.c) === 0,
      'the queue to be empty',
    );
    expect(runs).toHaveLength(JOBS);
    expect(new Set(runs.map((r) => r.n)).size).toBe(JOBS);
    expect(runs.every((r) => r.attempt === 1)).toBe(true);
    expect(new Set(runs.map((r) => r.worker))).toEqual(new Set(['a', 'b']));
  }, 90_000);
});
