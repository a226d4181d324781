/**
 * The route rate limit in the HTTP runtime (docs/http.md "Rate limits"):
 * who is counted (`by: ip | user | token`), where it runs in the chain, and
 * the boot check for a missing cache. Real HTTP, the memory cache.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { RequestAuth } from '../../../runtime/context/request-auth.js';
import { MemoryCache } from '../../../runtime/cache/drivers/memory-cache.js';
import { createHttpServer } from '../../../runtime/http/server.js';
import type { BeforeMiddleware } from '../../../runtime/http/handler.js';
import type { RateLimitPlan, RouteDefinition } from '../../../runtime/routing/route-table.js';
import { route } from '../http/support/routes.js';
import { call, closeAll, startServer } from '../http/support/server.js';

afterAll(closeAll);

const limited = (by: RateLimitPlan['by'], middleware: string[] = []): RouteDefinition => ({
  ...route({ name: 'limited', path: '/limited', middleware }),
  rateLimit: { limit: 2, windowMs: 60_000, by },
});

/** Signs the request in as the user or token named by `X-User` / `X-Token` (a stand-in for the auth and token guards). */
const signIn: BeforeMiddleware = {
  before(ctx) {
    const user = ctx.request.headers['x-user'];
    const token = ctx.request.headers['x-token'];
    if (typeof user === 'string') ctx.auth = new RequestAuth({ via: 'session', id: user, load: async () => ({ id: user }) });
    if (typeof token === 'string')
      ctx.auth = new RequestAuth({
        via: 'token',
        id: `owner-${token}`,
        load: async () => null,
        token: { id: token, name: 't', abilities: [] },
      });
    return undefined;
  },
};

describe('rateLimit | who is counted', () => {
  it('by: ip — the third request from one address is 429; the middleware did not run for it', async () => {
    let runs = 0;
    const counting: BeforeMiddleware = {
      before: () => {
        runs++;
        return undefined;
      },
    };
    const s = await startServer({
      routes: [limited('ip', ['count'])],
      handlers: { limited: () => ({ ok: true }) },
      middleware: { count: counting },
      services: { cache: new MemoryCache() } as never,
    });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await call(`${s.url}/limited`)).status);
    expect(statuses).toEqual([200, 200, 429]);
    expect(runs).toBe(2);
  });

  it("by: user — each signed-in user has a count; guests share their address's", async () => {
    const s = await startServer({
      routes: [limited('user', ['auth'])],
      handlers: { limited: () => ({ ok: true }) },
      middleware: { auth: signIn },
      services: { cache: new MemoryCache() } as never,
    });
    const as = async (user?: string) => (await call(`${s.url}/limited`, { headers: user ? { 'x-user': user } : {} })).status;
    expect([await as('1'), await as('1'), await as('1')]).toEqual([200, 200, 429]);
    expect([await as('2'), await as('2')]).toEqual([200, 200]);
    expect([await as(), await as(), await as()]).toEqual([200, 200, 429]);
  });

  it('by: token — counted per bearer token, not per owner', async () => {
    const s = await startServer({
      routes: [limited('token', ['auth'])],
      handlers: { limited: () => ({ ok: true }) },
      middleware: { auth: signIn },
      services: { cache: new MemoryCache() } as never,
    });
    const as = async (token: string) => (await call(`${s.url}/limited`, { headers: { 'x-token': token } })).status;
    expect([await as('a'), await as('a'), await as('a'), await as('b')]).toEqual([200, 200, 429, 200]);
  });
});

describe('rateLimit | at boot', () => {
  it('a limited route in an app without a cache stops the boot, saying to add cache()', async () => {
    const error = await createHttpServer({
      routes: [limited('ip')],
      handlers: { limited: () => ({}) },
      services: {} as never,
      environment: 'testing',
      debug: false,
      maxBodyBytes: 1024,
      requestTimeoutMs: 5_000,
    }).then(
      () => undefined,
      (e: unknown) => e as Error & { code: string },
    );
    expect(error?.code).toBe('BINDERY_ROUTE_INVALID');
    expect(error?.message).toContain('add cache() to the setup list');
  });
});
