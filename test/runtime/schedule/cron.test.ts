/**
 * Scheduled tasks on graphile-worker's cron.
 *
 * The clock is controlled through graphile-worker's own record of the last
 * run (`_private_known_crontabs.last_execution`): a worker starting after a
 * task's last run catches up the minutes it missed within the task's
 * backfill period — graphile-worker's cron code fires them at once, no
 * waiting for the next minute.
 */
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, defineApp, type TestApp } from '../../../runtime/app/index.js';
import { currentContext } from '../../../runtime/context/execution-context.js';
import { jobs, startWorker } from '../../../runtime/jobs/index.js';
import { JobDefinitionError } from '../../../runtime/jobs/errors.js';
import { jobsRuntimeOf } from '../../../runtime/jobs/jobs-runtime.js';
import { defineScheduledTask, nextRun, schedule, type ScheduledTaskContext } from '../../../runtime/schedule/index.js';
import { scheduledTasksOf } from '../../../runtime/schedule/register-task.js';
import { ScheduleError } from '../../../runtime/schedule/errors.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { waitFor } from '../jobs/wait-for.js';

const runs: { scheduledAt: Date; backfilled: boolean; via: string; origin: unknown; attempt: number }[] = [];

const tick = defineScheduledTask({
  name: 'test:tick',
  cron: '* * * * *',
  description: 'Every minute.',
  backfill: '10m',
  maxAttempts: 2,
  run(ctx: ScheduledTaskContext) {
    const exec = currentContext()!;
    runs.push({
      scheduledAt: ctx.scheduledAt,
      backfilled: ctx.backfilled,
      via: `${exec.via.kind}:${exec.via.name}`,
      origin: exec.origin,
      attempt: ctx.job.attempt,
    });
  },
});

const nightly = defineScheduledTask({ name: 'test:nightly', cron: '0 3 * * *', run() {} });

const app = defineApp({
  name: 'schedule_test',
  root: fileURLToPath(new URL('.', import.meta.url)),
  routes: [],
  handlers: {},
  migrations: [],
  setup: [jobs(), schedule({ tasks: [tick, nightly] })],
});

describe('Scheduled tasks | graphile-worker cron fires them', () => {
  let database: TestDatabase;
  let t: TestApp;
  beforeAll(async () => {
    database = await createTestDatabase('schedule');
    t = await createTestApp(app, { databaseUrl: database.url });
  });
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  it('a worker starting three minutes after the last run fires the missed minutes at once, as system via the task', async () => {
    await sql`insert into graphile_worker._private_known_crontabs (identifier, known_since, last_execution)
      values ('test:tick', now() - interval '1 hour', date_trunc('minute', now()) - interval '3 minutes')`.execute(t.db);
    const started = Date.now();
    await startWorker(t.running.services, { pollIntervalMs: 200 });
    await waitFor(() => runs.filter((r) => r.backfilled).length >= 3, 'the three missed minutes to run');
    expect(Date.now() - started).toBeLessThan(15_000);
    const backfilled = runs.filter((r) => r.backfilled).sort((a, b) => a.scheduledAt.getTime() - b.scheduledAt.getTime());
    for (const run of backfilled) {
      expect(run.scheduledAt.getUTCSeconds()).toBe(0);
      expect(run).toMatchObject({ via: 'schedule:test:tick', origin: { type: 'system', id: '' }, attempt: 1 });
    }
    const minutes = backfilled.map((r) => r.scheduledAt.getTime());
    expect(new Set(minutes).size).toBe(minutes.length); // each minute once
    const last = await sql<{
      last_execution: Date;
    }>`select last_execution from graphile_worker._private_known_crontabs where identifier = 'test:tick'`.execute(t.db);
    expect(new Date(last.rows[0]!.last_execution).getTime()).toBeGreaterThanOrEqual(Math.max(...minutes));
  });

  it('lists the tasks of the app on the runtime', () => {
    const runtime = jobsRuntimeOf(t.running.services)!;
    expect(scheduledTasksOf(runtime).map((s) => s.name)).toEqual(['test:tick', 'test:nightly']);
    expect(runtime.task('test:nightly')).toMatchObject({ kind: 'schedule', owner: 'schedule()' });
  });
});

describe('Scheduled tasks | definitions', () => {
  it('refuses a bad cron pattern, name or backfill', () => {
    expect(() => defineScheduledTask({ name: 'test:bad', cron: '61 * * * *', run() {} })).toThrow(ScheduleError);
    expect(() => defineScheduledTask({ name: 'test:bad', cron: 'every day', run() {} })).toThrow('the cron pattern "every day" is invalid');
    expect(() => defineScheduledTask({ name: 'Bad', cron: '* * * * *', run() {} })).toThrow(JobDefinitionError);
    expect(() => defineScheduledTask({ name: 'test:bad', cron: '* * * * *', backfill: 'soon', run() {} })).toThrow(ScheduleError);
    expect(() => schedule({ tasks: [tick, tick] })).toThrow('schedule() lists the task "test:tick" twice');
  });

  it('computes the next run in UTC', () => {
    expect(nextRun('0 3 * * *', new Date('2025-01-01T12:00:00Z'))?.toISOString()).toBe('2025-01-02T03:00:00.000Z');
    expect(nextRun('*/15 * * * *', new Date('2025-01-01T12:07:30Z'))?.toISOString()).toBe('2025-01-01T12:15:00.000Z');
    expect(nextRun('0 0 29 2 *', new Date('2025-03-01T00:00:00Z'))).toBeUndefined(); // next 29 February is in 2028
  });

  it('needs jobs() before it', () => {
    expect(() => defineApp({ name: 'x', root: '/tmp', routes: [], handlers: {}, migrations: [], setup: [schedule()] })).toThrow(
      'schedule() needs jobs() set up before it: add jobs() before schedule()',
    );
  });
});
