/**
 * Headers on every response (X-Request-ID, security headers, HSTS in
 * production only) and the health endpoints, over real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { field, route } from './support/routes.js';
import { call, closeAll, postJson, rawRequest, startServer, type TestServer } from './support/server.js';
import type { ReadinessReport } from '../../../runtime/http/server-options.js';
import { DEFAULT_CONTENT_SECURITY_POLICY, policySetting, resolvePolicy } from '../../../runtime/config/content-security-policy.js';

const SECURITY = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'SAMEORIGIN',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'cross-origin-opener-policy': 'same-origin',
  'content-security-policy': DEFAULT_CONTENT_SECURITY_POLICY,
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const routes = [
  route({ name: 'ok', path: '/ok' }),
  route({ name: 'crash', path: '/crash' }),
  route({ name: 'rules', method: 'POST', path: '/rules', fields: [field('n', 'integer', { json: 'n' }, ['max:1'])] }),
];
const handlers = {
  ok: () => ({ ok: true }),
  crash: () => {
    throw new Error('x');
  },
  rules: () => ({}),
};

let server: TestServer;
let production: TestServer;
let ownPolicy: TestServer;
let noPolicy: TestServer;
let readiness: ReadinessReport | Error = { ok: true, checks: { database: 'ok', migrations: 'none pending' } };
beforeAll(async () => {
  server = await startServer({
    routes,
    handlers,
    maxBodyBytes: 64,
    readiness: async () => {
      if (readiness instanceof Error) throw readiness;
      return readiness;
    },
  });
  production = await startServer({ routes, handlers, environment: 'production' });
  ownPolicy = await startServer({ routes, handlers, contentSecurityPolicy: "default-src 'self'; img-src https://images.example" });
  noPolicy = await startServer({ routes, handlers, contentSecurityPolicy: null });
});
afterAll(closeAll);

const pick = (headers: Headers | Record<string, unknown>, names: string[]) =>
  Object.fromEntries(names.map((n) => [n, headers instanceof Headers ? headers.get(n) : headers[n]]));

describe('Headers | security headers on every response', () => {
  const cases: Array<[string, () => Promise<{ status: number; headers: Headers }>, number]> = [
    ['200', () => call(`${server.url}/ok`), 200],
    ['404', () => call(`${server.url}/missing`), 404],
    ['405', () => call(`${server.url}/ok`, { method: 'DELETE' }), 405],
    ['413', () => postJson(`${server.url}/rules`, { n: 'x'.repeat(100) }), 413],
    ['415', () => call(`${server.url}/rules`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' }), 415],
    ['400', () => call(`${server.url}/rules`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' }), 400],
    ['422', () => postJson(`${server.url}/rules`, { n: 5 }), 422],
    ['500', () => call(`${server.url}/crash`), 500],
    ['health', () => call(`${server.url}/health/live`), 200],
  ];
  it.each(cases)('%s', async (_label, send, status) => {
    const res = await send();
    expect(res.status).toBe(status);
    expect(pick(res.headers, Object.keys(SECURITY))).toEqual(SECURITY);
    expect(res.headers.get('x-request-id')).toMatch(UUID);
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });

  it('HSTS in production only', async () => {
    for (const path of ['/ok', '/missing', '/crash']) {
      const res = await call(`${production.url}${path}`);
      expect(res.headers.get('strict-transport-security'), path).toBe('max-age=31536000; includeSubDomains');
      expect(pick(res.headers, Object.keys(SECURITY))).toEqual(SECURITY);
    }
  });
});

describe('Headers | Vary: HX-Request on every response to an htmx request, whatever the group', () => {
  const htmx = { 'hx-request': 'true' };
  const cases: Array<[string, () => Promise<{ status: number; headers: Headers }>, number]> = [
    ['200', () => call(`${server.url}/ok`, { headers: htmx }), 200],
    ['404', () => call(`${server.url}/missing`, { headers: htmx }), 404],
    ['405', () => call(`${server.url}/ok`, { method: 'DELETE', headers: htmx }), 405],
    ['413', () => postJson(`${server.url}/rules`, { n: 'x'.repeat(100) }, htmx), 413],
    ['422', () => postJson(`${server.url}/rules`, { n: 5 }, htmx), 422],
    ['500', () => call(`${server.url}/crash`, { headers: htmx }), 500],
  ];
  it.each(cases)('%s', async (_label, send, status) => {
    const res = await send();
    expect(res.status).toBe(status);
    expect(res.headers.get('vary')).toBe('HX-Request');
  });

  it('a request without HX-Request gets no Vary of its own', async () => {
    expect((await call(`${server.url}/ok`)).headers.get('vary')).toBeNull();
    expect((await call(`${server.url}/ok`, { headers: { 'hx-request': 'false' } })).headers.get('vary')).toBeNull();
  });
});

describe('Headers | Content-Security-Policy', () => {
  it('the default is strict: no inline script or eval, no plugins, no <base>, forms and frames only from this origin', () => {
    const directives = Object.fromEntries(DEFAULT_CONTENT_SECURITY_POLICY.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));
    expect(directives['default-src']).toEqual(["'self'"]);
    expect(directives['script-src']).toEqual(["'self'"]);
    expect(directives['object-src']).toEqual(["'none'"]);
    expect(directives['base-uri']).toEqual(["'none'"]);
    expect(directives['form-action']).toEqual(["'self'"]);
    expect(directives['frame-ancestors']).toEqual(["'self'"]);
    expect(DEFAULT_CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
  });

  it('an app policy replaces it on every response; null sends none', async () => {
    for (const path of ['/ok', '/missing', '/crash']) {
      expect((await call(`${ownPolicy.url}${path}`)).headers.get('content-security-policy'), path).toBe(
        "default-src 'self'; img-src https://images.example",
      );
      expect((await call(`${noPolicy.url}${path}`)).headers.get('content-security-policy'), path).toBeNull();
    }
  });

  it('HTTP_CSP wins over the app option; off sends none; a bad policy is refused', () => {
    const parse = (text: string) => policySetting().parse(text);
    expect(resolvePolicy(undefined, undefined)).toBe(DEFAULT_CONTENT_SECURITY_POLICY);
    expect(resolvePolicy(undefined, "default-src 'none' ;")).toBe("default-src 'none'");
    expect(resolvePolicy(undefined, false)).toBeNull();
    const setting = parse("default-src 'self'; img-src *");
    expect(setting).toEqual({ ok: true, value: "default-src 'self'; img-src *" });
    expect(resolvePolicy((setting as { value: string }).value, "default-src 'none'")).toBe("default-src 'self'; img-src *");
    expect(parse('OFF')).toEqual({ ok: true, value: false });
    expect(resolvePolicy(false, "default-src 'none'")).toBeNull();
    expect(parse("default-src 'self'\r\nSet-Cookie: a=1").ok).toBe(false);
    expect(parse(' ; ').ok).toBe(false);
    expect(parse("'self' default-src").ok).toBe(false);
    expect(() => resolvePolicy(undefined, 'caf\u00e9')).toThrow(/contentSecurityPolicy/);
  });
});

describe('Headers | X-Request-ID', () => {
  it.each([
    ['a plain ID', 'abc-123', true],
    ['all allowed characters', 'A.z_0:9-x', true],
    ['128 characters', 'a'.repeat(128), true],
    ['129 characters', 'a'.repeat(129), false],
    ['a space', 'abc 123', false],
    ['a slash', 'abc/123', false],
    ['non-ASCII', 'abc\u00e9', false],
  ])('keeps or replaces %s', async (_label, id, kept) => {
    const res = await rawRequest(`${server.url}/ok`, { headers: { 'x-request-id': Buffer.from(id, 'utf8').toString('latin1') } });
    const sent = res.headers['x-request-id'];
    if (kept) expect(sent).toBe(id);
    else expect(sent).toMatch(UUID);
  });

  it('is fresh for each request without one, and used as request_id and in logs', async () => {
    const a = await call(`${server.url}/crash`, { headers: { accept: 'application/json' } });
    const b = await call(`${server.url}/crash`, { headers: { accept: 'application/json' } });
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
    expect(a.json().request_id).toBe(a.headers.get('x-request-id'));
    expect(server.logs.some((l) => l.reqId === a.headers.get('x-request-id') && l.level === 50)).toBe(true);
  });

  it('a repeated header is replaced', async () => {
    const res = await call(`${server.url}/ok`, {
      headers: [
        ['x-request-id', 'one'],
        ['x-request-id', 'two'],
      ],
    });
    expect(res.headers.get('x-request-id')).toMatch(UUID);
  });
});

describe('Health | GET /health/live and /health/ready', () => {
  it('live answers 200 {"status":"ok"}', async () => {
    const res = await call(`${server.url}/health/live`);
    expect(res.status).toBe(200);
    expect(res.text).toBe('{"status":"ok"}');
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('ready answers 200 with the checks when ready, 503 when not, 503 when the probe throws', async () => {
    readiness = { ok: true, checks: { database: 'ok', migrations: 'none pending' } };
    const ok = await call(`${server.url}/health/ready`);
    expect(ok.status).toBe(200);
    expect(ok.json()).toEqual({ status: 'ok', checks: { database: 'ok', migrations: 'none pending' } });
    readiness = { ok: false, checks: { database: 'ok', migrations: '2 pending' } };
    const pending = await call(`${server.url}/health/ready`);
    expect(pending.status).toBe(503);
    expect(pending.json()).toEqual({ status: 'unavailable', checks: { database: 'ok', migrations: '2 pending' } });
    readiness = new Error('connect ECONNREFUSED');
    const failed = await call(`${server.url}/health/ready`);
    expect(failed.status).toBe(503);
    expect(failed.json()).toEqual({ status: 'unavailable', checks: { readiness: 'failed: connect ECONNREFUSED' } });
  });

  it('ready without a probe is ready; HEAD works; other methods are 405', async () => {
    const res = await call(`${production.url}/health/ready`);
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', checks: {} });
    expect((await call(`${production.url}/health/live`, { method: 'HEAD' })).status).toBe(200);
    const post = await call(`${production.url}/health/live`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });
});
