/**
 * The MySQL queue's cron with two instances (docs/jobs.md "Scheduled
 * tasks"): each minute is queued once however many workers queue it —
 * minute by minute (the cron's own step, with the minutes given) and when
 * two workers start together and catch up the minutes missed since the
 * task's last run (backfill) — and the runs get the minute and whether it
 * was caught up, as scheduled tasks do.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../../../../runtime/db/connect.js';
import type { RunningWorker } from '../../../../runtime/jobs/index.js';
import { MysqlCron } from '../../../../runtime/jobs/mysql/cron.js';
import { defineScheduledTask } from '../../../../runtime/schedule/define-scheduled-task.js';
import { registerScheduledTask } from '../../../../runtime/schedule/register-task.js';
import { waitFor } from '../wait-for.js';
import { captureLog, jobsRuntimeOn, openQueueDatabase } from './queue-database.js';

const MINUTE = 60_000;

let close: () => Promise<void>;
let database: Database;
let second: Database;

beforeAll(async () => {
  ({ database, close } = await openQueueDatabase('mysql_cron'));
  second = await connectDatabase({ url: database.engine.url, max: 5 });
});
afterAll(async () => {
  await second?.close();
  await close?.();
});

const cronJobs = async (task: string) =>
  (
    await sql<{
      payload: { _cron: { ts: string; backfilled: boolean } };
      run_at: Date;
      max_attempts: number;
    }>`SELECT payload, run_at, max_attempts FROM jobs_queue WHERE task = ${task} ORDER BY run_at`.execute(database.db)
  ).rows;

describe('MySQL cron | two instances, minute by minute', () => {
  it('queues each matching minute once, whichever instance gets there first', async () => {
    const log = captureLog().log;
    const item = { task: 'test:every_minute', pattern: '* * * * *', backfillMs: 0, maxAttempts: 3 };
    const a = new MysqlCron(database.db, [item], log);
    const b = new MysqlCron(second.db, [item], log);
    const first = Math.floor(Date.now() / MINUTE) * MINUTE - 10 * MINUTE;
    const queuedBy: string[][] = [];
    for (let i = 0; i < 5; i++) {
      const at = new Date(first + i * MINUTE);
      const [byA, byB] = await Promise.all([a.queueMinute(at), b.queueMinute(at)]);
      queuedBy.push([...byA, ...byB]);
    }
    expect(queuedBy).toEqual(Array.from({ length: 5 }, () => ['test:every_minute']));
    const jobs = await cronJobs('test:every_minute');
    expect(jobs.map((j) => j.payload._cron)).toEqual(
      Array.from({ length: 5 }, (_, i) => ({ ts: new Date(first + i * MINUTE).toISOString(), backfilled: false })),
    );
    expect(jobs.map((j) => j.run_at.getTime())).toEqual(Array.from({ length: 5 }, (_, i) => first + i * MINUTE));
    expect(jobs.every((j) => j.max_attempts === 3)).toBe(true);
    // A minute already queued, or one before it, is not queued again.
    expect(await a.queueMinute(new Date(first + 4 * MINUTE))).toEqual([]);
    expect(await b.queueMinute(new Date(first + 2 * MINUTE))).toEqual([]);
    expect(await cronJobs('test:every_minute')).toHaveLength(5);
  });

  it('two running crons wake at the minute and queue it once', async () => {
    const log = captureLog().log;
    const item = { task: 'test:woken', pattern: '* * * * *', backfillMs: 0 };
    // Both clocks read 150 ms before a minute (in the past, so the database's clock does not matter).
    const boundary = Math.floor(Date.now() / MINUTE) * MINUTE - 20 * MINUTE;
    const offset = boundary - 150 - Date.now();
    const now = () => Date.now() + offset;
    const crons = [new MysqlCron(database.db, [item], log, now), new MysqlCron(second.db, [item], log, now)];
    await Promise.all(crons.map((c) => c.start()));
    try {
      await waitFor(async () => (await cronJobs('test:woken')).length > 0, 'the minute to be queued');
      await new Promise((resolve) => setTimeout(resolve, 300)); // a second queuing would be done by now
      expect((await cronJobs('test:woken')).map((j) => j.payload._cron)).toEqual([
        { ts: new Date(boundary).toISOString(), backfilled: false },
      ]);
    } finally {
      await Promise.all(crons.map((c) => c.stop()));
    }
  });

  it('queues only the items whose pattern matches the minute', async () => {
    const log = captureLog().log;
    const cron = new MysqlCron(database.db, [{ task: 'test:at_three', pattern: '30 3 * * *', backfillMs: 0 }], log);
    expect(await cron.queueMinute(new Date('2025-01-02T03:29:00Z'))).toEqual([]);
    expect(await cron.queueMinute(new Date('2025-01-02T03:30:00Z'))).toEqual(['test:at_three']);
    expect(await cronJobs('test:at_three')).toHaveLength(1);
  });
});

describe('MySQL cron | two workers starting together catch up the missed minutes once', () => {
  const runs: { scheduledAt: Date; backfilled: boolean; worker: string }[] = [];
  const workers: RunningWorker[] = [];
  afterAll(async () => {
    for (const worker of workers) await worker.stop();
  });

  it("runs each minute since the task's last run once, as a scheduled task", async () => {
    const tick = defineScheduledTask({
      name: 'test:tick',
      cron: '* * * * *',
      backfill: '10m',
      run({ scheduledAt, backfilled, services }) {
        runs.push({ scheduledAt, backfilled, worker: String((services as unknown as { label: string }).label) });
      },
    });
    // The task last ran three minutes ago; no worker ran since.
    const last = new Date(Math.floor(Date.now() / MINUTE) * MINUTE - 3 * MINUTE);
    await sql`INSERT INTO jobs_cron_tasks (task, known_since, last_execution) VALUES ('test:tick', ${new Date(last.getTime() - 3_600_000)}, ${last})`.execute(
      database.db,
    );
    const runtimes = [database, second].map((on, i) => {
      const runtime = jobsRuntimeOn(on, [], { log: captureLog().log, pollIntervalMs: 50, services: { label: `w${i}` } });
      registerScheduledTask(runtime, tick, 'schedule()');
      return runtime;
    });
    workers.push(...(await Promise.all(runtimes.map((r) => r.startWorker()))));
    // The minutes after the last run up to the current one (two if the clock passed a minute meanwhile).
    await waitFor(() => runs.filter((r) => r.backfilled).length >= 3, 'the missed minutes to run', 15_000);
    await new Promise((resolve) => setTimeout(resolve, 500)); // a duplicate would run by now
    const minutes = runs.map((r) => r.scheduledAt.getTime()).sort((x, y) => x - y);
    expect(new Set(minutes).size).toBe(minutes.length);
    expect(minutes[0]).toBe(last.getTime() + MINUTE);
    for (let i = 1; i < minutes.length; i++) expect(minutes[i]! - minutes[i - 1]!).toBe(MINUTE);
    expect(minutes.at(-1)).toBeLessThanOrEqual(Date.now());
    const row = await sql<{ last_execution: Date }>`SELECT last_execution FROM jobs_cron_tasks WHERE task = 'test:tick'`.execute(
      database.db,
    );
    expect(row.rows[0]!.last_execution.getTime()).toBe(minutes.at(-1));
  }, 30_000);
});
