/**
 * `HTTP_TRUST_PROXY` (docs/http.md, docs/deploy.md "Behind a proxy"): which
 * `X-Forwarded-*` headers are believed, and — end to end with the reference
 * app behind a front on loopback — that the client address of the login
 * throttle, the route rate limits and the audit log comes from
 * `X-Forwarded-For` only when the front is trusted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, closeAll, startServer } from './support/server.js';
import { route } from './support/routes.js';
import { coreSettings } from '../../../runtime/config/index.js';
import { loadSettings } from '../../../runtime/config/load-settings.js';
import { Client } from '../auth/support/client.js';
import { bearerFor, bootReferenceApp, makeAccount, type ReferenceApp } from '../../app/tokens-support.js';

afterAll(closeAll);

const routes = [route({ name: 'ip', path: '/ip' })];
const handlers = {
  ip: (_: unknown, ctx: { request: { ip: string; protocol: string } }) => ({ ip: ctx.request.ip, protocol: ctx.request.protocol }),
};
const forwarded = { 'x-forwarded-for': '203.0.113.7, 10.0.0.2', 'x-forwarded-proto': 'https' };

describe('HTTP_TRUST_PROXY | which X-Forwarded-* headers are believed', () => {
  it('believes none by default: the client is the socket peer', async () => {
    const server = await startServer({ routes, handlers });
    expect((await call(`${server.url}/ip`, { headers: forwarded })).json()).toEqual({ ip: '127.0.0.1', protocol: 'http' });
  });

  it('with true, takes the first forwarded address and protocol', async () => {
    const server = await startServer({ routes, handlers, trustProxy: true });
    expect((await call(`${server.url}/ip`, { headers: forwarded })).json()).toEqual({ ip: '203.0.113.7', protocol: 'https' });
  });

  it('with a hop count, trusts only that many proxies', async () => {
    const server = await startServer({ routes, handlers, trustProxy: 1 });
    expect((await call(`${server.url}/ip`, { headers: forwarded })).json().ip).toBe('10.0.0.2');
  });

  it('with addresses, trusts only those peers', async () => {
    const trusted = await startServer({ routes, handlers, trustProxy: ['127.0.0.1', '10.0.0.0/8'] });
    expect((await call(`${trusted.url}/ip`, { headers: forwarded })).json().ip).toBe('203.0.113.7');
    const other = await startServer({ routes, handlers, trustProxy: ['192.0.2.1'] });
    expect((await call(`${other.url}/ip`, { headers: forwarded })).json().ip).toBe('127.0.0.1');
  });

  it('parses the setting and names it when bad', () => {
    const load = (value: string) =>
      loadSettings(coreSettings, { APP_KEY: `base64:${Buffer.alloc(32).toString('base64')}`, HTTP_TRUST_PROXY: value }).HTTP_TRUST_PROXY;
    expect(load('false')).toBe(false);
    expect(load('true')).toBe(true);
    expect(load('2')).toBe(2);
    expect(load('10.0.0.0/8, ::1')).toEqual(['10.0.0.0/8', '::1']);
    expect(() => load('proxy.example')).toThrow(/HTTP_TRUST_PROXY/);
  });
});

describe('HTTP_TRUST_PROXY | behind a front: throttles, rate limits and the audit IP', () => {
  const PASSWORD = 'correct horse battery';
  // The front is on 127.0.0.1; each describe's clients come from their own loopback address.
  let trusted: ReferenceApp;
  let untrusted: ReferenceApp;
  beforeAll(async () => {
    [trusted, untrusted] = await Promise.all([
      bootReferenceApp('trust_proxy_on', { HTTP_TRUST_PROXY: '127.0.0.0/8', AUDIT_IP: 'full' }),
      bootReferenceApp('trust_proxy_off', { AUDIT_IP: 'full' }),
    ]);
  }, 60_000);
  afterAll(async () => {
    await trusted?.close();
    await untrusted?.close();
  });

  const xff = (client: string) => ({ 'x-forwarded-for': client });
  let mails = 0;
  // A new address each time: the handler also limits mails per email address.
  const forgot = (a: ReferenceApp, front: string, client: string) =>
    new Client(a.url, front).json('POST', '/forgot-password', { email: `someone${++mails}@example.test` }, xff(client));
  const login = async (a: ReferenceApp, front: string, client: string, email: string, password: string) => {
    const c = new Client(a.url, front);
    await c.page('/login');
    const res = await c.json('POST', '/login', { email, password }, xff(client));
    return res.status === 422 ? String(res.json().errors.email) : String(res.status);
  };
  const auditIp = async (a: ReferenceApp, front: string, client: string, slug: string) => {
    const res = await new Client(a.url, front).send('POST', '/api/documents', {
      headers: {
        accept: 'application/json',
        'content-type': 'application/json',
        authorization: `Bearer ${await bearerFor(a.t, 1)}`,
        ...xff(client),
      },
      body: JSON.stringify({ slug, title: slug }),
    });
    expect(res.status, res.body).toBe(201);
    const entry = (await a.db
      .selectFrom('audit_log' as any)
      .select('ip' as any)
      .where('subject_id' as any, '=', String(res.json().id))
      .executeTakeFirstOrThrow()) as { ip: string | null };
    return entry.ip;
  };

  it('trusted: each forwarded client has its own rate-limit count', async () => {
    for (let i = 0; i < 5; i++) expect((await forgot(trusted, '127.0.11.1', '203.0.113.10')).status).toBe(303);
    expect((await forgot(trusted, '127.0.11.1', '203.0.113.10')).status).toBe(429);
    expect((await forgot(trusted, '127.0.11.1', '203.0.113.11')).status).toBe(303);
  });

  it("not trusted: the forwarded header is ignored, every client behind the front shares the front's count", async () => {
    for (let i = 0; i < 5; i++) expect((await forgot(untrusted, '127.0.11.2', `203.0.113.${20 + i}`)).status).toBe(303);
    expect((await forgot(untrusted, '127.0.11.2', '203.0.113.99')).status).toBe(429);
  });

  it('trusted: the login throttle counts per forwarded client', async () => {
    const user = await makeAccount(trusted, { password: PASSWORD });
    for (let i = 0; i < 5; i++)
      expect(await login(trusted, '127.0.11.3', '198.51.100.1', user.email, 'wrong')).toBe('These credentials do not match our records.');
    expect(await login(trusted, '127.0.11.3', '198.51.100.1', user.email, PASSWORD)).toMatch(/^Too many login attempts/);
    expect(await login(trusted, '127.0.11.3', '198.51.100.2', user.email, PASSWORD)).toBe('303');
  });

  it('not trusted: a client cannot dodge the login throttle by forging X-Forwarded-For', async () => {
    const user = await makeAccount(untrusted, { password: PASSWORD });
    for (let i = 0; i < 5; i++) await login(untrusted, '127.0.11.4', `198.51.100.${10 + i}`, user.email, 'wrong');
    expect(await login(untrusted, '127.0.11.4', '198.51.100.99', user.email, PASSWORD)).toMatch(/^Too many login attempts/);
  });

  it('the audit entry keeps the forwarded client address when trusted, the peer address otherwise', async () => {
    expect(await auditIp(trusted, '127.0.11.5', '192.0.2.44', 'trusted-doc')).toBe('192.0.2.44');
    expect(await auditIp(untrusted, '127.0.11.5', '192.0.2.44', 'untrusted-doc')).toBe('127.0.11.5');
  });
});
