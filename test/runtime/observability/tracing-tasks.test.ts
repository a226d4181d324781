/**
 * Traces of listeners and scheduled tasks (docs/observability.md "Jobs,
 * scheduled tasks and listeners"): a synchronous listener is a span inside
 * the request that emitted its event, an asynchronous one a run continuing
 * that request's trace; a scheduled task's run starts a trace of its own.
 */
import { fileURLToPath } from 'node:url';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, defineApp, type TestApp } from '../../../runtime/app/index.js';
import { defineEvent, defineListener, events } from '../../../runtime/events/index.js';
import type { RequestContext } from '../../../runtime/http/context.js';
import { jobs, startWorker, type RunningWorker } from '../../../runtime/jobs/index.js';
import { jobsRuntimeOf } from '../../../runtime/jobs/jobs-runtime.js';
import { observability } from '../../../runtime/observability/index.js';
import { defineScheduledTask, schedule } from '../../../runtime/schedule/index.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { waitFor } from '../jobs/wait-for.js';
import { type OtlpReceiver, startOtlpReceiver } from './otlp-receiver.js';

const dbOf = (services: object) => (services as { db: Kysely<never> }).db;
const noted = defineEvent<{ n: number }>({ name: 'test:noted' });
const syncListener = defineListener({
  name: 'test:sync_noted',
  event: noted,
  async handle(payload, ctx) {
    await sql`select ${payload.n}::int as n`.execute(dbOf(ctx.services));
  },
});
const asyncListener = defineListener({
  name: 'test:async_noted',
  event: noted,
  mode: 'async',
  async handle(payload, ctx) {
    await sql`select ${payload.n}::int + 1 as n`.execute(dbOf(ctx.services));
  },
});
const tick = defineScheduledTask({
  name: 'test:tick',
  cron: '0 0 1 1 *',
  async run(ctx) {
    await sql`select 'tick' as t`.execute(dbOf(ctx.services));
  },
});

let receiver: OtlpReceiver;
let database: TestDatabase;
let t: TestApp;
let worker: RunningWorker | undefined;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  database = await createTestDatabase('otel_tasks');
  const app = defineApp({
    name: 'otel_tasks',
    root: fileURLToPath(new URL('.', import.meta.url)),
    routes: [
      {
        name: 'emit',
        method: 'POST',
        path: '/emit',
        group: null,
        middleware: [],
        result: 'ok',
        fields: [],
        validate: null,
        output: null,
        origin: 'test',
      },
    ],
    handlers: {
      emit: async (_input: unknown, ctx: RequestContext) => {
        const result = await ctx.services.events.emit(noted, { n: 41 });
        return { ran: result.ran, queued: result.queued.length };
      },
    },
    migrations: [],
    setup: [observability(), jobs(), schedule({ tasks: [tick] }), events({ events: [noted], listeners: [syncListener, asyncListener] })],
  });
  t = await createTestApp(app, {
    databaseUrl: database.url,
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '50',
      OTEL_METRICS_EXPORTER: 'none',
    },
  });
  worker = await startWorker(t.running.services);
});
afterAll(async () => {
  await worker?.stop();
  await t?.close();
  await database?.drop();
  await receiver?.close();
});

describe('Traces | listeners and scheduled tasks', () => {
  it('a synchronous listener is a span of the request; an asynchronous one a run in its trace', async () => {
    const traceId = '5bf92f3577b34da6a3ce929d0e0e4736';
    const res = await fetch(`${t.url}/emit`, { method: 'POST', headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } });
    expect(await res.json()).toEqual({ ran: 1, queued: 1 });
    await waitFor(
      () => receiver.spans.some((s) => s.traceId === traceId && s.name === 'process test:async_noted'),
      'the async listener run',
      15_000,
    );
    const spans = receiver.spans.filter((s) => s.traceId === traceId);
    const handler = spans.find((s) => s.name === 'handler')!;
    const listener = spans.find((s) => s.name === 'listener test:sync_noted')!;
    expect(listener).toMatchObject({
      parentSpanId: handler.spanId,
      attributes: { 'bindery.listener': 'test:sync_noted', 'bindery.event': 'test:noted' },
    });
    expect(spans.find((s) => s.parentSpanId === listener.spanId)?.attributes['db.query.text']).toBe('select $1::int as n');
    const queued = spans.find((s) => s.name === 'send test:async_noted')!;
    expect(queued.attributes['bindery.job.kind']).toBe('listener');
    const run = spans.find((s) => s.name === 'process test:async_noted')!;
    expect(run).toMatchObject({ parentSpanId: queued.spanId, attributes: { 'bindery.job.kind': 'listener' } });
  });

  it('a scheduled task run starts a trace of its own', async () => {
    const runtime = jobsRuntimeOf(t.running.services)!;
    await runtime.queue.enqueue(runtime.task('test:tick')!, { _cron: { ts: new Date().toISOString(), backfilled: false } });
    await waitFor(() => receiver.spans.some((s) => s.name === 'process test:tick'), 'the scheduled run', 15_000);
    const run = receiver.spans.find((s) => s.name === 'process test:tick')!;
    expect(run).toMatchObject({ parentSpanId: '', links: [], attributes: { 'bindery.job.kind': 'schedule', 'bindery.job.attempt': 1 } });
    await waitFor(() => receiver.spans.some((s) => s.traceId === run.traceId && s.parentSpanId === run.spanId), 'its statement', 10_000);
    expect(receiver.spans.find((s) => s.traceId === run.traceId && s.parentSpanId === run.spanId)?.attributes['db.query.text']).toBe(
      'select ? as t',
    );
  });
});
