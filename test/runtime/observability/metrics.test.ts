/**
 * Metrics in the Prometheus text format at GET /metrics
 * (docs/observability.md "Metrics", "Prometheus"): the reference app with
 * METRICS_ENDPOINT=true after a known load, and the guard — clients on this
 * machine, or a bearer METRICS_TOKEN.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, defineApp, type TestApp } from '../../../runtime/app/index.js';
import { observability } from '../../../runtime/observability/index.js';
import { text } from '../../../runtime/results/index.js';
import { type AccountsApp, bootAccounts, makeUser } from '../../app/accounts-support.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';

let a: AccountsApp;

beforeAll(async () => {
  a = await bootAccounts('metrics', { METRICS_ENDPOINT: 'true', METRICS_TOKEN: 'a-scraper-secret-of-some-length' });
});
afterAll(async () => {
  await a?.close();
});

/** The sample lines of `name` (`name{labels} value`), as label text → value. */
function samples(exposition: string, name: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of exposition.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})? (\S+)/.exec(line);
    if (m && m[1] === name) out.set(m[2] ?? '', Number(m[3]));
  }
  return out;
}

/** The value of `name` whose labels include every `label="value"` given. */
function sample(exposition: string, name: string, labels: Readonly<Record<string, string>>): number | undefined {
  for (const [text, value] of samples(exposition, name))
    if (Object.entries(labels).every(([k, v]) => text.includes(`${k}="${v}"`))) return value;
  return undefined;
}

/** A small app with one route, `GET /hello`, and `observability()`. */
function helloApp(name: string) {
  return defineApp({
    name,
    root: fileURLToPath(new URL('.', import.meta.url)),
    routes: [
      {
        name: 'hello',
        method: 'GET',
        path: '/hello',
        group: null,
        middleware: [],
        result: 'text',
        fields: [],
        validate: null,
        output: null,
        origin: 'test',
      },
    ],
    handlers: { hello: () => text('hello') },
    migrations: [],
    setup: [observability()],
  });
}

describe('GET /metrics | after a known load', () => {
  it('counts requests by route and status class, login failures, and reads the pool and the job queue', async () => {
    const user = await makeUser(a);
    for (let i = 0; i < 3; i++) expect((await fetch(`${a.url}/login`, { headers: { accept: 'text/html' } })).status).toBe(200);
    for (let i = 0; i < 2; i++)
      expect((await fetch(`${a.url}/no-such-page`, { headers: { accept: 'application/json' } })).status).toBe(404);
    const failed = await fetch(`${a.url}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ email: user.email, password: 'not the password' }),
    });
    expect(failed.status).toBe(422);

    const res = await fetch(`${a.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const body = await res.text();

    expect(
      sample(body, 'http_server_request_duration_count', {
        http_request_method: 'GET',
        http_route: '/login',
        http_response_status_class: '2xx',
      }),
    ).toBe(3);
    expect(
      sample(body, 'http_server_request_duration_count', {
        http_request_method: 'POST',
        http_route: '/login',
        http_response_status_class: '4xx',
      }),
    ).toBe(1);
    // A 404 matched no route: no http_route label.
    const notFound = [...samples(body, 'http_server_request_duration_count')].filter(
      ([labels]) => labels.includes('http_response_status_class="4xx"') && !labels.includes('http_route='),
    );
    expect(notFound.map(([, v]) => v)).toEqual([2]);
    expect(body).toMatch(/^# TYPE http_server_request_duration histogram$/m);
    expect(body).toMatch(/^# UNIT http_server_request_duration s$/m);
    expect(body).toMatch(/^target_info\{.*service_name="bindery"/m);
    expect(body).not.toContain('otel_scope_name');
    expect(
      sample(body, 'http_server_request_duration_bucket', { http_route: '/login', http_response_status_class: '2xx', le: '+Inf' }),
    ).toBe(3);
    // Nothing in flight but this scrape, which is not counted.
    expect(sample(body, 'http_server_active_requests', { http_request_method: 'GET' })).toBe(0);

    expect(sample(body, 'bindery_auth_login_failures_total', { bindery_auth_reason: 'credentials' })).toBe(1);

    const pool = { db_client_connection_pool_name: 'bindery' };
    expect(sample(body, 'db_client_connection_count', { ...pool, db_client_connection_state: 'idle' })).toBeGreaterThanOrEqual(1);
    expect(sample(body, 'db_client_connection_count', { ...pool, db_client_connection_state: 'used' })).toBeGreaterThanOrEqual(0);
    expect(sample(body, 'db_client_connection_pending_requests', pool)).toBeGreaterThanOrEqual(0);
    expect(sample(body, 'db_client_connection_max', pool)).toBe(10);

    for (const state of ['queued', 'waiting', 'running', 'failed'])
      expect(sample(body, 'bindery_jobs', { bindery_job_state: state })).toBe(0);
    // The scrape itself is not a request of the app's.
    expect(body).not.toContain('http_route="/metrics"');
  });

  it('queued jobs show in the queue gauge', async () => {
    const user = await makeUser(a);
    const res = await fetch(`${a.url}/forgot-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ email: user.email }),
      redirect: 'manual',
    });
    expect(res.status).toBeLessThan(400);
    const body = await (await fetch(`${a.url}/metrics`)).text();
    expect(sample(body, 'bindery_jobs', { bindery_job_state: 'queued' })).toBe(1);
  });
});

describe('GET /metrics | guarded', () => {
  const proxied = { 'x-forwarded-for': '203.0.113.7' };

  it('through a proxy or from elsewhere: 401 without the token, 401 with another, 200 with it', async () => {
    const without = await fetch(`${a.url}/metrics`, { headers: { ...proxied, accept: 'application/json' } });
    expect(without.status).toBe(401);
    expect(without.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
    expect(((await without.json()) as { request_id?: string }).request_id).toBe(without.headers.get('x-request-id'));
    const wrong = await fetch(`${a.url}/metrics`, { headers: { ...proxied, authorization: 'Bearer a-scraper-secret-of-some-lengtH' } });
    expect(wrong.status).toBe(401);
    const right = await fetch(`${a.url}/metrics`, { headers: { ...proxied, authorization: 'Bearer a-scraper-secret-of-some-length' } });
    expect(right.status).toBe(200);
    expect(await right.text()).toContain('http_server_request_duration');
  });

  describe('without METRICS_TOKEN', () => {
    let database: TestDatabase;
    let t: TestApp;
    beforeAll(async () => {
      database = await createTestDatabase('metrics_local');
      const app = helloApp('metrics_local');
      t = await createTestApp(app, { databaseUrl: database.url, env: { METRICS_ENDPOINT: 'true' } });
    });
    afterAll(async () => {
      await t?.close();
      await database?.drop();
    });

    it('serves this machine only: 403 through a proxy, whatever the bearer', async () => {
      expect((await fetch(`${t.url}/hello`)).status).toBe(200);
      const local = await fetch(`${t.url}/metrics`);
      expect(local.status).toBe(200);
      expect(sample(await local.text(), 'http_server_request_duration_count', { http_route: '/hello' })).toBe(1);
      const refused: Array<Record<string, string>> = [
        proxied,
        { ...proxied, authorization: 'Bearer anything-at-all-here' },
        { forwarded: 'for=203.0.113.7' },
      ];
      for (const headers of refused) expect((await fetch(`${t.url}/metrics`, { headers })).status).toBe(403);
    });
  });
});

describe('GET /metrics | in production', () => {
  let database: TestDatabase;
  const app = helloApp('metrics_production');
  const production = (env: Record<string, string>) =>
    createTestApp(app, { databaseUrl: database.url, env: { APP_ENV: 'production', METRICS_ENDPOINT: 'true', ...env } });
  beforeAll(async () => {
    database = await createTestDatabase('metrics_production');
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('without METRICS_TOKEN: 403 even from this machine with no proxy header (a same-host proxy that adds none)', async () => {
    const t = await production({});
    try {
      expect((await fetch(`${t.url}/hello`)).status).toBe(200);
      const local = await fetch(`${t.url}/metrics`, { headers: { accept: 'application/json' } });
      expect(local.status).toBe(403);
      expect(local.headers.get('content-type')).toContain('application/problem+json');
      expect(((await local.json()) as { detail: string }).detail).toBe(
        'In production GET /metrics needs its own credential: set METRICS_TOKEN and have the scraper send Authorization: Bearer <METRICS_TOKEN> (docs/observability.md "Prometheus").',
      );
      const withBearer = await fetch(`${t.url}/metrics`, { headers: { authorization: 'Bearer anything-at-all-here' } });
      expect(withBearer.status).toBe(403);
      await withBearer.arrayBuffer();
    } finally {
      await t.close();
    }
  });

  it('with METRICS_TOKEN: the bearer token is needed from this machine too, whatever the forwarding headers say', async () => {
    const t = await production({ METRICS_TOKEN: 'a-production-scraper-secret' });
    try {
      const refusedHeaders: Array<Record<string, string>> = [
        {},
        { 'x-forwarded-for': '203.0.113.7' },
        { authorization: 'Bearer a-production-scraper-secreT' },
      ];
      for (const headers of refusedHeaders) {
        const refused = await fetch(`${t.url}/metrics`, { headers: { accept: 'application/json', ...headers } });
        expect(refused.status, JSON.stringify(headers)).toBe(401);
        expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
        await refused.arrayBuffer();
      }
      const allowedFrom: Array<Record<string, string>> = [{}, { 'x-forwarded-for': '203.0.113.7' }];
      for (const headers of allowedFrom) {
        const right = await fetch(`${t.url}/metrics`, { headers: { ...headers, authorization: 'Bearer a-production-scraper-secret' } });
        expect(right.status).toBe(200);
        expect(await right.text()).toContain('target_info');
      }
    } finally {
      await t.close();
    }
  });
});
