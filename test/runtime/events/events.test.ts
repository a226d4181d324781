/**
 * Events and listeners: in-process listeners during emit,
 * asynchronous listeners as jobs over real graphile-worker.
 */
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, defineApp, type TestApp } from '../../../runtime/app/index.js';
import { currentContext, withActor } from '../../../runtime/context/execution-context.js';
import { defineEvent, defineListener, emitEvent, events, type EventBus } from '../../../runtime/events/index.js';
import { EventError } from '../../../runtime/events/errors.js';
import { jobs, startWorker, defineJob } from '../../../runtime/jobs/index.js';
import { jobsRuntimeOf } from '../../../runtime/jobs/jobs-runtime.js';
import { JobDefinitionError } from '../../../runtime/jobs/errors.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { waitFor } from '../jobs/wait-for.js';

const signedUp = defineEvent<{ userId: number }>({
  name: 'test:signed_up',
  payload: (raw) => {
    if (typeof (raw as { userId?: unknown })?.userId !== 'number') throw new Error('userId must be a number');
    return raw as { userId: number };
  },
});

const log: string[] = [];
const asyncRuns: { userId: number; via: string; origin: unknown; attempt: number | undefined }[] = [];

const first = defineListener({
  name: 'test:first',
  event: signedUp,
  handle: ({ userId }) => {
    log.push(`first ${userId}`);
  },
});
const second = defineListener({
  name: 'test:second',
  event: signedUp,
  async handle({ userId }, ctx) {
    log.push(`second ${userId}`);
    await sql`insert into event_marks (mark) values (${`second ${userId}`})`.execute(ctx.db);
    if (userId === 13) throw new Error('unlucky');
  },
});
const later = defineListener({
  name: 'test:later',
  event: signedUp,
  mode: 'async',
  handle({ userId }, ctx) {
    const exec = currentContext()!;
    asyncRuns.push({ userId, via: `${exec.via.kind}:${exec.via.name}`, origin: exec.origin, attempt: ctx.job?.attempt });
  },
});

const app = defineApp({
  name: 'events_test',
  root: fileURLToPath(new URL('.', import.meta.url)),
  routes: [],
  handlers: {},
  migrations: [],
  setup: [jobs(), events({ events: [signedUp], listeners: [first, second, later] })],
});

let database: TestDatabase;
let t: TestApp;
let bus: EventBus;

beforeAll(async () => {
  database = await createTestDatabase('events');
  t = await createTestApp(app, { databaseUrl: database.url, env: { JOBS_POLL_INTERVAL: '200ms' } });
  await sql`create table event_marks (mark text not null)`.execute(t.db);
  bus = t.running.services.events as EventBus;
  await startWorker(t.running.services);
});
afterAll(async () => {
  await t?.close();
  await database?.drop();
});
beforeEach(async () => {
  log.length = 0;
  asyncRuns.length = 0;
  await sql`delete from event_marks`.execute(t.db);
});

const marks = async () => (await sql<{ mark: string }>`select mark from event_marks order by mark`.execute(t.db)).rows.map((r) => r.mark);

describe('Events | in-process listeners', () => {
  it("run in order during emit, inside the emitter's transaction", async () => {
    await t.db.transaction().execute(async (tx) => {
      const result = await bus.emit(signedUp, { userId: 1 }, { tx });
      expect(result.ran).toBe(2);
      expect(result.queued).toHaveLength(1);
      expect(log).toEqual(['first 1', 'second 1']);
    });
    expect(await marks()).toEqual(['second 1']);
    await waitFor(() => asyncRuns.length === 1, 'the asynchronous listener to run');
  });

  it('an error of a listener reaches the emitter; rolled back, nothing of the emit stays or runs', async () => {
    await expect(
      t.db.transaction().execute(async (tx) => {
        await bus.emit('test:signed_up' as never, { userId: 13 } as never, { tx });
      }),
    ).rejects.toThrow('unlucky');
    expect(await marks()).toEqual([]);
    const queued = await sql<{
      n: number;
    }>`select count(*)::int as n from graphile_worker.jobs where task_identifier = 'test:later'`.execute(t.db);
    expect(queued.rows[0]!.n).toBe(0);
    // The async listener was not queued in the rolled-back transaction: another emit's job runs, not this one.
    await bus.emit(signedUp, { userId: 2 });
    await waitFor(() => asyncRuns.length === 1, "the second emit's listener to run");
    expect(asyncRuns.map((r) => r.userId)).toEqual([2]);
  });

  it('checks the payload of a declared event before any listener runs', async () => {
    await expect(bus.emit(signedUp, { userId: 'x' } as never)).rejects.toThrow(EventError);
    await expect(bus.emit(signedUp, { userId: 'x' } as never)).rejects.toThrow(
      'The payload of the event "test:signed_up" was refused: userId must be a number',
    );
    expect(log).toEqual([]);
    await expect(bus.emit('nonsense' as never, {} as never)).rejects.toThrow(EventError);
  });
});

describe('Events | asynchronous listeners run as jobs', () => {
  it("with the emitter's actor as origin, via the listener", async () => {
    await withActor({ type: 'user', id: '5' }, () => bus.emit(signedUp, { userId: 5 }));
    await waitFor(() => asyncRuns.length === 1, 'the asynchronous listener to run');
    expect(asyncRuns[0]).toEqual({ userId: 5, via: 'listener:test:later', origin: { type: 'user', id: '5' }, attempt: 1 });
    expect(jobsRuntimeOf(t.running.services)!.task('test:later')).toMatchObject({ kind: 'listener', owner: 'events()' });
  });
});

describe('Events | definitions and set-up', () => {
  it('refuses bad names, a listener listed twice, a name taken by a job', async () => {
    expect(() => defineEvent({ name: 'NoNamespace' })).toThrow(EventError);
    expect(() => defineListener({ name: 'bad name', event: signedUp, handle() {} })).toThrow(EventError);
    expect(() => defineListener({ name: 'test:x', event: signedUp, mode: 'later' as never, handle() {} })).toThrow(
      'mode must be "sync" or "async"',
    );
    expect(() => events({ listeners: [first, first] })).toThrow('events() lists the listener "test:first" twice');
    const clash = defineJob({ name: 'test:later', handle() {} });
    const broken = defineApp({
      name: 'events_clash',
      root: fileURLToPath(new URL('.', import.meta.url)),
      routes: [],
      handlers: {},
      migrations: [],
      setup: [jobs({ jobs: [clash] }), events({ listeners: [later] })],
    });
    await expect(createTestApp(broken, { databaseUrl: database.url, migrate: false })).rejects.toThrow(JobDefinitionError);
    await expect(createTestApp(broken, { databaseUrl: database.url, migrate: false })).rejects.toThrow(
      'events() declares the listener "test:later", but jobs() already declares a job of that name',
    );
  });

  it('emitEvent does nothing in an app without events()', async () => {
    expect(await emitEvent({}, signedUp, { userId: 1 })).toEqual({ ran: 0, queued: [] });
    expect(log).toEqual([]);
  });
});
