/**
 * Traces over OTLP (docs/observability.md "Traces"): the reference app
 * started with OTEL_EXPORTER_OTLP_ENDPOINT pointed at a receiver this test
 * runs. A request continuing a client's `traceparent`, its SQL statements,
 * the job it queued and that job's run (its SQL, its mail) arrive as one
 * trace; a malformed `traceparent` starts a new one.
 */
import { fileURLToPath } from 'node:url';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, defineApp } from '../../../runtime/app/index.js';
import type { RequestContext } from '../../../runtime/http/context.js';
import { observability } from '../../../runtime/observability/index.js';
import { createTestDatabase } from '../../support/database.js';
import { startWorker, type RunningWorker } from '../../../runtime/jobs/index.js';
import { waitFor } from '../jobs/wait-for.js';
import { type AccountsApp, bootAccounts, makeUser } from '../../app/accounts-support.js';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from './otlp-receiver.js';

const SERVER = 2;
const CLIENT = 3;
const PRODUCER = 4;
const CONSUMER = 5;

let receiver: OtlpReceiver;
let a: AccountsApp;
let worker: RunningWorker | undefined;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  a = await bootAccounts('otel', {
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_SERVICE_NAME: 'notes-under-test',
    OTEL_BSP_SCHEDULE_DELAY: '50',
    OTEL_METRIC_EXPORT_INTERVAL: '200',
  });
});
afterAll(async () => {
  await worker?.stop();
  await a?.close();
  await receiver?.close();
});

const hex = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 16).toString(16)).join('');
const inTrace = (traceId: string) => receiver.spans.filter((s) => s.traceId === traceId);

describe('Traces | a request, its SQL and the job it queued, in the trace the client started', () => {
  it('continues the traceparent: server span, stages, SQL without values, the queued job and its run with its mail', async () => {
    const user = await makeUser(a, { email: `traced-${hex(6)}@example.test` });
    const traceId = hex(32);
    const clientSpan = hex(16);
    const res = await fetch(`${a.url}/forgot-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', traceparent: `00-${traceId}-${clientSpan}-01` },
      body: JSON.stringify({ email: user.email }),
      redirect: 'manual',
    });
    expect(res.status).toBeLessThan(400);
    const requestId = res.headers.get('x-request-id');

    worker = await startWorker(a.t.running.services);
    await waitFor(() => inTrace(traceId).some((s) => s.name.startsWith('send mail')), 'the job run and its mail in the trace', 15_000);
    const spans = inTrace(traceId);
    const byId = new Map(spans.map((s) => [s.spanId, s]));

    const server = spans.find((s) => s.kind === SERVER)!;
    expect(server).toMatchObject({ name: 'POST /forgot-password', parentSpanId: clientSpan });
    expect(server.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/forgot-password',
      'url.path': '/forgot-password',
      'http.response.status_code': res.status,
      'bindery.route': expect.any(String),
      'bindery.request_id': requestId,
    });
    expect(server.resource['service.name']).toBe('notes-under-test');

    // The pipeline's stages are children of the request.
    for (const stage of ['bind and validate', 'handler']) expect(spans.find((s) => s.name === stage)?.parentSpanId).toBe(server.spanId);

    // SQL statements: client spans with the table, the text never holding the value sent.
    const sql = spans.filter((s) => s.kind === CLIENT && s.attributes['db.system.name'] === 'postgresql');
    expect(sql.filter((s) => ancestors(s, byId).includes(server.spanId)).length).toBeGreaterThan(0);
    for (const s of sql) {
      expect(String(s.attributes['db.query.text'])).not.toContain(user.email);
      expect(s.attributes['db.namespace']).toBe(a.t.running.database.displayUrl.split('/').pop());
    }

    // The job queued in the request: a producer span, and its run a consumer span in the same trace, child of and linked to it.
    const queued = spans.find((s) => s.kind === PRODUCER)!;
    expect(queued).toBeDefined();
    expect(ancestors(queued, byId)).toContain(server.spanId);
    const run = spans.find((s) => s.kind === CONSUMER)!;
    expect(run.name).toBe(`process ${queued.attributes['messaging.destination.name']}`);
    expect(run.parentSpanId).toBe(queued.spanId);
    expect(run.links).toEqual([{ traceId, spanId: queued.spanId }]);
    expect(run.attributes).toMatchObject({ 'messaging.message.id': queued.attributes['messaging.message.id'], 'bindery.job.attempt': 1 });

    // Queuing is a statement under the producer span.
    expect(
      sql.some((s) => s.parentSpanId === queued.spanId && String(s.attributes['db.query.text']).includes('graphile_worker.add_job')),
    ).toBe(true);

    // The run's own SQL (it looks the account up) and its mail are its children.
    const lookup = sql.find((s) => s.attributes['db.collection.name'] === 'users' && s.attributes['db.operation.name'] === 'SELECT')!;
    expect(lookup.name).toBe('SELECT users');
    expect(ancestors(lookup, byId)).toContain(run.spanId);
    const mail = spans.find((s) => s.name === 'send mail')!;
    expect(ancestors(mail, byId)).toContain(run.spanId);
    expect(mail.attributes).toMatchObject({ 'bindery.mail.driver': 'outbox', 'bindery.mail.recipients': 1 });
  });

  it('a malformed traceparent is ignored: the request is served and starts a trace of its own', async () => {
    const res = await fetch(`${a.url}/login`, { headers: { accept: 'text/html', traceparent: '00-not-a-trace-01' } });
    expect(res.status).toBe(200);
    const requestId = res.headers.get('x-request-id');
    await waitFor(() => receiver.spans.some((s) => s.attributes['bindery.request_id'] === requestId), 'the request span', 10_000);
    const span = receiver.spans.find((s) => s.attributes['bindery.request_id'] === requestId)!;
    expect(span.parentSpanId).toBe('');
    expect(span.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(span.name).toBe('GET /login');
  });

  it('a 5xx marks the server span as an error; a 404 is named by its method alone', async () => {
    const res = await fetch(`${a.url}/no-such-page-${hex(4)}`, { headers: { accept: 'application/json' } });
    expect(res.status).toBe(404);
    const requestId = res.headers.get('x-request-id');
    await waitFor(() => receiver.spans.some((s) => s.attributes['bindery.request_id'] === requestId), 'the 404 span', 10_000);
    const span = receiver.spans.find((s) => s.attributes['bindery.request_id'] === requestId)!;
    expect(span.name).toBe('GET');
    expect(span.attributes['http.response.status_code']).toBe(404);
    expect(span.attributes['http.route']).toBeUndefined();
    expect(span.status).toBe(0);
  });

  it('every request span has its own HTTP attributes; a HEAD on a GET route is named HEAD', async () => {
    const agent = `probe-${hex(6)}`;
    const port = Number(new URL(a.url).port);
    const ids: string[] = [];
    for (const method of ['GET', 'HEAD', 'GET']) {
      const res = await fetch(`${a.url}/login?next=${hex(4)}`, { method, headers: { accept: 'text/html', 'user-agent': agent } });
      expect(res.status).toBe(200);
      ids.push(res.headers.get('x-request-id')!);
    }
    const spanOf = (id: string) => receiver.spans.find((s) => s.kind === SERVER && s.attributes['bindery.request_id'] === id);
    await waitFor(() => ids.every((id) => spanOf(id) !== undefined), 'the three request spans', 10_000);
    const [first, head, third] = ids.map((id) => spanOf(id)!);
    expect([first!.name, head!.name, third!.name]).toEqual(['GET /login', 'HEAD /login', 'GET /login']);
    for (const [span, method] of [
      [first!, 'GET'],
      [head!, 'HEAD'],
      [third!, 'GET'],
    ] as const)
      expect(span.attributes).toMatchObject({
        'http.request.method': method,
        'http.route': '/login',
        'url.path': '/login',
        'url.scheme': 'http',
        'server.address': '127.0.0.1',
        'server.port': port,
        'client.address': expect.stringMatching(/127\.0\.0\.1/),
        'user_agent.original': agent,
        'http.response.status_code': 200,
      });
    expect(first!.attributes['bindery.request_id']).not.toBe(third!.attributes['bindery.request_id']);
  });

  it('an input failing its rules (422): binding and validation is a span that is not an error, and no handler span', async () => {
    const res = await fetch(`${a.url}/forgot-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ email: 'not an address' }),
    });
    expect(res.status).toBe(422);
    expect((await res.json()) as { errors?: unknown }).toHaveProperty('errors');
    const requestId = res.headers.get('x-request-id');
    await waitFor(
      () => receiver.spans.some((s) => s.kind === SERVER && s.attributes['bindery.request_id'] === requestId),
      'the 422 span',
      10_000,
    );
    const server = receiver.spans.find((s) => s.kind === SERVER && s.attributes['bindery.request_id'] === requestId)!;
    await waitFor(() => inTrace(server.traceId).some((s) => s.name === 'bind and validate'), 'its stage', 10_000);
    expect(server.attributes['http.response.status_code']).toBe(422);
    expect(server.status).toBe(0);
    const spans = inTrace(server.traceId);
    expect(spans.find((s) => s.name === 'bind and validate')).toMatchObject({ parentSpanId: server.spanId, status: 0 });
    expect(spans.some((s) => s.name === 'handler')).toBe(false);
  });

  it('metrics go to the same receiver over OTLP', async () => {
    await waitFor(() => receiver.metricNames.has('http.server.request.duration'), 'the request duration metric', 10_000);
    expect(receiver.metricNames).toContain('db.client.connection.count');
  });
});

describe('Traces | observability({ stageSpans: false })', () => {
  it('keeps the request span and its statements, without a span per stage', async () => {
    const database = await createTestDatabase('otel_stages');
    const app = defineApp({
      name: 'no_stages',
      root: fileURLToPath(new URL('.', import.meta.url)),
      routes: [
        {
          name: 'count',
          method: 'GET',
          path: '/count',
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
        count: async (_input: unknown, ctx: RequestContext) => {
          const { rows } = await sql<{ n: number }>`select 41 + 1 as n`.execute((ctx.services as unknown as { db: Kysely<never> }).db);
          return { n: rows[0]!.n };
        },
      },
      migrations: [],
      setup: [observability({ stageSpans: false })],
    });
    const t = await createTestApp(app, {
      databaseUrl: database.url,
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_BSP_SCHEDULE_DELAY: '50',
        OTEL_METRICS_EXPORTER: 'none',
      },
    });
    try {
      // Twice: each request's statement span is its own, on the statement's attributes made once.
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`${t.url}/count`);
        expect(await res.json()).toEqual({ n: 42 });
        const requestId = res.headers.get('x-request-id');
        await waitFor(() => receiver.spans.some((s) => s.attributes['bindery.request_id'] === requestId), 'the request span', 10_000);
        const server = receiver.spans.find((s) => s.attributes['bindery.request_id'] === requestId)!;
        await waitFor(() => inTrace(server.traceId).length >= 2, 'its statement', 10_000);
        const spans = inTrace(server.traceId);
        expect(spans.map((s) => s.name).sort()).toEqual(['GET /count', 'SELECT']);
        expect(spans.find((s) => s.name === 'SELECT')).toMatchObject({
          parentSpanId: server.spanId,
          attributes: { 'db.query.text': 'select ? + ? as n', 'db.operation.name': 'SELECT', 'db.response.returned_rows': 1 },
        });
      }
    } finally {
      await t.close();
      await database.drop();
    }
  });
});

/** The span IDs above `span`, nearest first. */
function ancestors(span: ReceivedSpan, byId: ReadonlyMap<string, ReceivedSpan>): string[] {
  const out: string[] = [];
  for (let s: ReceivedSpan | undefined = span; s !== undefined && s.parentSpanId !== ''; s = byId.get(s.parentSpanId))
    out.push(s.parentSpanId);
  return out;
}
