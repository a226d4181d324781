import { afterAll, describe, expect, it } from 'vitest';
import { call, closeAll, startServer } from './support/server.js';
import { route } from './support/routes.js';
import { coreSettings, loadSettings } from '../../../runtime/config/index.js';

afterAll(closeAll);

const routes = [route({ name: 'ip', path: '/ip' })];
const handlers = { ip: (_: unknown, ctx: { request: { ip: string; protocol: string } }) => ({ ip: ctx.request.ip, protocol: ctx.request.protocol }) };
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
    const load = (value: string) => loadSettings(coreSettings, { APP_KEY: `base64:${Buffer.alloc(32).toString('base64')}`, HTTP_TRUST_PROXY: value }).HTTP_TRUST_PROXY;
    expect(load('false')).toBe(false);
    expect(load('true')).toBe(true);
    expect(load('2')).toBe(2);
    expect(load('10.0.0.0/8, ::1')).toEqual(['10.0.0.0/8', '::1']);
    expect(() => load('proxy.example')).toThrow(/HTTP_TRUST_PROXY/);
  });
});
