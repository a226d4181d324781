/**
 * Jobs on graphile-worker (docs/spec.md 5.8): transactions, actor
 * propagation, retries with backoff, failed jobs with their error — real
 * PostgreSQL, real graphile-worker, real HTTP.
 */
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, defineApp, type TestApp } from '../../../runtime/app/index.js';
import { currentContext, withActor, type ExecutionContext } from '../../../runtime/context/execution-context.js';
import type { RequestContext } from '../../../runtime/http/context.js';
import type { HttpRequestContext } from '../../../runtime/http/request-context.js';
import { defineJob, jobs, listFailedJobs, retryJob, startWorker, type JobContext, type Queue } from '../../../runtime/jobs/index.js';
import { JobPayloadError, UnknownJobError } from '../../../runtime/jobs/errors.js';
import { json } from '../../../runtime/results/index.js';
import type { RouteDefinition } from '../../../runtime/routing/route-table.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { waitFor } from './wait-for.js';

interface Ran {
  readonly name: string;
  readonly payload: unknown;
  readonly via: string;
  readonly origin: unknown;
  readonly requestId: string | undefined;
  readonly attempt: number;
  readonly jobOrigin: JobContext['origin'];
}
const ran: Ran[] = [];
const failuresLeft = new Map<string, number>();

function record(name: string, payload: unknown, ctx: JobContext): void {
  const exec = currentContext() as ExecutionContext;
  ran.push({
    name,
    payload,
    via: `${exec.via.kind}:${exec.via.name}`,
    origin: exec.origin,
    requestId: exec.requestId,
    attempt: ctx.job.attempt,
    jobOrigin: ctx.origin,
  });
}

const noteJob = defineJob<{ marker: string }>({
  name: 'test:note',
  payload: (raw) => {
    if (typeof (raw as { marker?: unknown })?.marker !== 'string') throw new Error('marker must be a string');
    return raw as { marker: string };
  },
  handle(payload, ctx) {
    record('test:note', payload, ctx);
  },
});

const chainJob = defineJob<{ marker: string }>({
  name: 'test:chain',
  async handle(payload, ctx) {
    record('test:chain', payload, ctx);
    await ctx.services.queue.add(noteJob, { marker: `${payload.marker}/child` });
  },
});

const flakyJob = defineJob<{ marker: string }>({
  name: 'test:flaky',
  maxAttempts: 3,
  handle(payload, ctx) {
    record('test:flaky', payload, ctx);
    const left = failuresLeft.get(payload.marker) ?? 0;
    if (left > 0) {
      failuresLeft.set(payload.marker, left - 1);
      throw new Error(`flaky failure of ${payload.marker}`);
    }
  },
});

const doomedJob = defineJob<{ marker: string }>({
  name: 'test:doomed',
  maxAttempts: 1,
  handle(payload, ctx) {
    record('test:doomed', payload, ctx);
    const left = failuresLeft.get(payload.marker) ?? 0;
    if (left > 0) {
      failuresLeft.set(payload.marker, left - 1);
      throw new Error(`doomed: ${payload.marker} cannot be done`);
    }
  },
});

const queueRoute: RouteDefinition = {
  name: 'test.queue',
  method: 'POST',
  path: '/queue',
  group: 'signed',
  middleware: ['signed_in'],
  result: 'ok',
  fields: [
    { key: 'marker', type: { kind: 'string', array: false, nullable: false }, source: 'body', json: 'marker', form: 'marker', rules: [] },
  ],
  validate: null,
  output: null,
  origin: 'test/runtime/jobs/queue.postgres.test.ts',
};

const app = defineApp({
  name: 'jobs_test',
  root: fileURLToPath(new URL('.', import.meta.url)),
  routes: [queueRoute],
  handlers: {
    'test.queue': async (input: { marker: string }, ctx: RequestContext) => {
      const job = await ctx.services.queue.add(noteJob, { marker: input.marker });
      return json({ id: job.id });
    },
  },
  // What the auth middleware does: the signed-in user, loaded on demand (docs/spec.md 5.8 rule 2).
  middleware: {
    signed_in: async (ctx, next) => {
      (ctx as HttpRequestContext).resolveUser = async () => ({ type: 'user', id: '42' });
      return next();
    },
  },
  migrations: [],
  setup: [jobs({ jobs: [noteJob, chainJob, flakyJob, doomedJob] })],
});

let database: TestDatabase;
let t: TestApp;
let queue: Queue;

beforeAll(async () => {
  database = await createTestDatabase('jobs');
  t = await createTestApp(app, { databaseUrl: database.url, env: { JOBS_POLL_INTERVAL: '200ms' } });
  queue = t.running.services.queue as Queue;
  await startWorker(t.running.services);
});
afterAll(async () => {
  await t?.close();
  await database?.drop();
});
beforeEach(() => {
  ran.length = 0;
});

const ranWith = (marker: string) => ran.filter((r) => (r.payload as { marker?: string }).marker === marker);

describe('Queue | transactions', () => {
  it('a job queued in a transaction that rolls back is never queued and never runs', async () => {
    await expect(
      t.db.transaction().execute(async (tx) => {
        await queue.add(noteJob, { marker: 'rolled-back' }, { tx });
        const inside = await sql<{
          n: number;
        }>`select count(*)::int as n from graphile_worker.jobs where task_identifier = 'test:note'`.execute(tx);
        expect(inside.rows[0]!.n).toBe(1); // visible inside the transaction
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    const after = await sql<{ n: number }>`select count(*)::int as n from graphile_worker.jobs where task_identifier = 'test:note'`.execute(
      t.db,
    );
    expect(after.rows[0]!.n).toBe(0);
    // A job queued after it runs; by then the rolled-back one would have run too.
    await queue.add(noteJob, { marker: 'sentinel' });
    await waitFor(() => ranWith('sentinel').length === 1, 'the sentinel job to run');
    expect(ranWith('rolled-back')).toEqual([]);
  });

  it('a job queued in a transaction runs once the transaction commits', async () => {
    await t.db.transaction().execute(async (tx) => {
      await queue.add(noteJob, { marker: 'committed' }, { tx });
    });
    await waitFor(() => ranWith('committed').length === 1, 'the committed job to run');
    expect(ranWith('committed')[0]).toMatchObject({ via: 'job:test:note', attempt: 1 });
  });
});

describe('Queue | the actor of the queuing work travels with the job (docs/spec.md 5.8 rule 3)', () => {
  it('a job queued by a request of a signed-in user runs with that user as origin and the request ID', async () => {
    const res = await fetch(`${t.url}/queue`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'req-actor-1' },
      body: JSON.stringify({ marker: 'from-request' }),
    });
    expect(res.status).toBe(200);
    await waitFor(() => ranWith('from-request').length === 1, 'the job queued by the request to run');
    const run = ranWith('from-request')[0]!;
    expect(run.origin).toEqual({ type: 'user', id: '42' });
    expect(run.requestId).toBe('req-actor-1');
    expect(run.via).toBe('job:test:note');
    expect(run.jobOrigin).toEqual({
      actor: { type: 'user', id: '42' },
      requestId: 'req-actor-1',
      via: { kind: 'request', name: 'POST /queue' },
    });
  });

  it('an explicit actor wins; a job queued by a job inherits its origin; outside any context it is system', async () => {
    await withActor({ type: 'admin', id: '7' }, () => queue.add(chainJob, { marker: 'chain' }));
    await waitFor(() => ranWith('chain/child').length === 1, 'the child job to run');
    expect(ranWith('chain')[0]!.origin).toEqual({ type: 'admin', id: '7' });
    expect(ranWith('chain/child')[0]!.origin).toEqual({ type: 'admin', id: '7' });
    expect(ranWith('chain/child')[0]!.jobOrigin.via).toEqual({ kind: 'job', name: 'test:chain' });

    await queue.add(noteJob, { marker: 'no-context' });
    await waitFor(() => ranWith('no-context').length === 1, 'the job to run');
    expect(ranWith('no-context')[0]!.origin).toEqual({ type: 'system', id: '' });
  });
});

describe('Queue | payloads and names', () => {
  it('refuses a payload its check refuses, and an unknown job; nothing is queued', async () => {
    await expect(queue.add(noteJob, { marker: 5 } as never)).rejects.toThrow(JobPayloadError);
    await expect(queue.add(noteJob, { marker: 5 } as never)).rejects.toThrow(
      'The payload of "test:note" was refused: marker must be a string',
    );
    await expect(queue.add(noteJob, { marker: 'x', n: 10n } as never)).rejects.toThrow(JobPayloadError);
    await expect(queue.add('test:nope' as never, {} as never)).rejects.toThrow(UnknownJobError);
    const n = await sql<{
      n: number;
    }>`select count(*)::int as n from graphile_worker.jobs where task_identifier in ('test:note', 'test:nope')`.execute(t.db);
    expect(n.rows[0]!.n).toBe(0);
  });
});

describe('Worker | retries with backoff and failed jobs', () => {
  it('retries a failing job after a backoff, counting attempts', async () => {
    failuresLeft.set('flaky', 1);
    const queued = await queue.add(flakyJob, { marker: 'flaky' });
    await waitFor(() => ranWith('flaky').length === 1, 'the first attempt');
    const failed = await waitForRow(queued.id);
    expect(failed).toMatchObject({ attempts: 1, max_attempts: 3 });
    expect(failed.last_error).toContain('flaky failure of flaky');
    // graphile-worker's backoff: the next attempt waits e^1 ≈ 2.7 s.
    expect(new Date(failed.run_at).getTime() - Date.now()).toBeGreaterThan(1000);
    await waitFor(() => ranWith('flaky').length === 2, 'the retry', 10_000);
    expect(ranWith('flaky').map((r) => r.attempt)).toEqual([1, 2]);
    await waitFor(async () => (await jobRow(queued.id)) === undefined, 'the succeeded job to be removed');
  });

  it('keeps a job whose attempts ran out, with its error, until retried', async () => {
    failuresLeft.set('doomed', 1);
    const queued = await queue.add(doomedJob, { marker: 'doomed' });
    await waitFor(async () => (await listFailedJobs(t.db)).some((j) => j.id === queued.id), 'the job to be listed as failed');
    const failed = (await listFailedJobs(t.db)).find((j) => j.id === queued.id)!;
    expect(failed).toMatchObject({ name: 'test:doomed', attempts: 1, maxAttempts: 1, permanent: true });
    expect(failed.lastError).toContain('doomed: doomed cannot be done');

    await expect(retryJob(t.db, '999999999')).rejects.toThrow(UnknownJobError);
    expect(await retryJob(t.db, queued.id)).toEqual({ id: queued.id, name: 'test:doomed' });
    await waitFor(() => ranWith('doomed').length === 2, 'the retried job to run', 10_000);
    await waitFor(async () => (await jobRow(queued.id)) === undefined, 'the retried job to succeed');
  });
});

async function jobRow(
  id: string,
): Promise<{ attempts: number; max_attempts: number; last_error: string | null; run_at: Date } | undefined> {
  const r = await sql<{
    attempts: number;
    max_attempts: number;
    last_error: string | null;
    run_at: Date;
  }>`select attempts, max_attempts, last_error, run_at from graphile_worker.jobs where id = ${id}::bigint`.execute(t.db);
  return r.rows[0];
}

async function waitForRow(id: string): Promise<{ attempts: number; max_attempts: number; last_error: string; run_at: Date }> {
  let row: Awaited<ReturnType<typeof jobRow>>;
  await waitFor(async () => {
    row = await jobRow(id);
    return row !== undefined && row.last_error !== null && row.attempts >= 1;
  }, `job ${id} to record its failure`);
  return row! as { attempts: number; max_attempts: number; last_error: string; run_at: Date };
}
