/**
 * CORS declared per group in the YAML (docs/http.md "CORS"), over real
 * HTTP against the reference app: the member routes (session, signed in)
 * allow http://localhost:5173 with credentials, the documents API (bearer
 * tokens) allows it without; the notes routes have no CORS. The matrix: allowed / disallowed origin × preflight / simple ×
 * with / without the session — and CSRF still asks for the token when a
 * cross-origin request carries the session cookie.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, type Reply } from '../runtime/auth/support/client.js';
import { CROSS_ORIGIN_MESSAGE, PAGE_EXPIRED_MESSAGE } from '../../runtime/csrf/csrf-error.js';
import { bearerFor, bootReferenceApp, makeAccount, signIn, type ReferenceApp } from './tokens-support.js';

const ALLOWED = 'http://localhost:5173';
const OTHER = 'https://evil.example';

let a: ReferenceApp;
beforeAll(async () => {
  a = await bootReferenceApp('cors_app');
});
afterAll(async () => {
  await a?.close();
});

/** The headers a browser adds to a cross-origin fetch from `origin`. */
const from = (origin: string): Record<string, string> => ({
  origin,
  'sec-fetch-site': origin === ALLOWED ? 'same-site' : 'cross-site',
  'sec-fetch-mode': 'cors',
});
const corsHeaders = (r: Reply): string[] =>
  Object.keys(r.headers)
    .filter((h) => h.startsWith('access-control-'))
    .sort();

function preflight(c: Client, path: string, origin: string, method = 'POST', headers = 'content-type, x-csrf-token'): Promise<Reply> {
  return c.send('OPTIONS', path, {
    headers: { ...from(origin), 'access-control-request-method': method, 'access-control-request-headers': headers },
  });
}

/** A signed-in browser: the session cookie and the CSRF token of the dashboard. */
async function withSession(): Promise<Client> {
  const c = await signIn(a, await makeAccount(a));
  await c.page('/dashboard');
  expect(c.token).toBeDefined();
  return c;
}

describe('CORS | preflight', () => {
  it('an allowed origin: 204 with the origin, credentials, methods, headers and max age; before any middleware', async () => {
    const r = await preflight(new Client(a.url), '/logout', ALLOWED);
    expect(r.status).toBe(204);
    expect(r.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(r.headers['access-control-allow-credentials']).toBe('true');
    expect(r.headers['access-control-allow-methods']).toBe('POST');
    expect(r.headers['access-control-allow-headers']).toBe('Authorization, Content-Type, X-CSRF-Token, X-Requested-With');
    expect(r.headers['access-control-max-age']).toBe('600');
    expect(String(r.headers['vary'])).toMatch(/Origin/);
    expect(r.headers['set-cookie']).toBeUndefined();
  });

  it('the documents API: the origin without credentials; a path with a parameter', async () => {
    const r = await preflight(new Client(a.url), '/api/documents/12', ALLOWED, 'PATCH', 'authorization, content-type');
    expect(r.status).toBe(204);
    expect(r.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(r.headers['access-control-allow-credentials']).toBeUndefined();
    expect(r.headers['access-control-allow-methods']).toBe('GET, PATCH, DELETE, HEAD');
  });

  it('a disallowed origin gets no CORS header at all (405 like any OPTIONS request)', async () => {
    for (const path of ['/logout', '/api/documents/12']) {
      const r = await preflight(new Client(a.url), path, OTHER);
      expect(r.status).toBe(405);
      expect(corsHeaders(r)).toEqual([]);
      expect(r.headers['allow']).toBeDefined();
    }
  });

  it('a route without cors gets no CORS header, whatever the origin', async () => {
    for (const path of ['/login', '/notes']) {
      const r = await preflight(new Client(a.url), path, ALLOWED);
      expect(corsHeaders(r)).toEqual([]);
      expect(r.status).toBe(405);
    }
    const simple = await new Client(a.url).send('GET', '/notes', { headers: { ...from(ALLOWED), accept: 'application/json' } });
    expect(simple.status).toBe(200);
    expect(corsHeaders(simple)).toEqual([]);
  });
});

describe('CORS | simple and actual requests without a session', () => {
  it("an allowed origin: the answer (a guest's 401 here) carries the origin, credentials and the exposed headers", async () => {
    const r = await new Client(a.url).send('GET', '/users/1', { headers: { ...from(ALLOWED), accept: 'application/json' } });
    expect(r.status).toBe(401);
    expect(r.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(r.headers['access-control-allow-credentials']).toBe('true');
    expect(r.headers['access-control-expose-headers']).toContain('X-Request-ID');
    expect(r.headers['access-control-allow-methods']).toBeUndefined();
  });

  it('a disallowed origin: the same answer, without any CORS header (the browser keeps it from the page)', async () => {
    const r = await new Client(a.url).send('GET', '/users/1', { headers: { ...from(OTHER), accept: 'application/json' } });
    expect(r.status).toBe(401);
    expect(corsHeaders(r)).toEqual([]);
  });

  it('a JSON write from an allowed origin without the session cookie needs no CSRF token (no ambient credentials): the guard answers', async () => {
    const r = await new Client(a.url).json('POST', '/logout', {}, from(ALLOWED));
    expect(r.status).toBe(401);
    expect(r.headers['access-control-allow-origin']).toBe(ALLOWED);
  });

  it('the documents API with a bearer token from an allowed origin', async () => {
    const token = await bearerFor(a.t, 5151);
    const r = await new Client(a.url).json(
      'POST',
      '/api/documents',
      { slug: 'cors', title: 'CORS' },
      { ...from(ALLOWED), authorization: `Bearer ${token}` },
    );
    expect(r.status).toBe(201);
    expect(r.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(r.headers['access-control-allow-credentials']).toBeUndefined();
  });
});

describe('CORS | with the session cookie: CSRF designed with it', () => {
  it("an allowed origin passes the cross-origin check but still needs the session's CSRF token", async () => {
    const c = await withSession();
    const token = c.token!;
    c.token = undefined;
    const without = await c.json('POST', '/logout', {}, from(ALLOWED));
    expect(without.status).toBe(403);
    expect(without.json()).toMatchObject({ detail: PAGE_EXPIRED_MESSAGE });
    expect(without.headers['access-control-allow-origin']).toBe(ALLOWED);
    const withToken = await c.json('POST', '/logout', {}, { ...from(ALLOWED), 'x-csrf-token': token });
    expect(withToken.status).toBe(303);
    expect(withToken.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(withToken.headers['access-control-allow-credentials']).toBe('true');
  });

  it('a disallowed origin is refused by CSRF even with the right token, and gets no CORS header', async () => {
    const c = await withSession();
    const r = await c.json('POST', '/logout', {}, from(OTHER));
    expect(r.status).toBe(403);
    expect(r.json()).toMatchObject({ detail: CROSS_ORIGIN_MESSAGE });
    expect(corsHeaders(r)).toEqual([]);
  });

  it('a simple GET with the session from an allowed origin carries the CORS headers; from another, none', async () => {
    const c = await withSession();
    const me = await c.send('GET', '/dashboard', { headers: { ...from(ALLOWED), accept: 'application/json' } });
    expect(me.headers['access-control-allow-origin']).toBe(ALLOWED);
    const other = await c.send('GET', '/dashboard', { headers: { ...from(OTHER), accept: 'application/json' } });
    expect(corsHeaders(other)).toEqual([]);
  });
});

describe('CORS | routes without it pay nothing', () => {
  it("the CORS hook is attached to the routes of CORS groups only (Fastify's route tree with hooks)", () => {
    const lines = a.t.app.printRoutes({ includeHooks: true, commonPrefix: false }).split('\n');
    /** The hooks listed under the tree line of `segment` whose methods include `method`. */
    const hooksOf = (segment: string, method: string): string[] => {
      const i = lines.findIndex((l) =>
        new RegExp(`[─ ]${segment.replace(/[/.]/g, '\\$&')} \\(([A-Z, ]*\\b${method}\\b[A-Z, ]*)\\)$`).test(l),
      );
      expect(i, `${method} ${segment} in the route tree`).toBeGreaterThanOrEqual(0);
      const hooks: string[] = [];
      for (let j = i + 1; j < lines.length && lines[j]!.includes('•'); j++) hooks.push(lines[j]!.slice(lines[j]!.indexOf('•')));
      return hooks;
    };
    expect(hooksOf('api/documents', 'POST').join(' ')).toContain('handleCors');
    expect(hooksOf('logout', 'POST').join(' ')).toContain('handleCors');
    expect(hooksOf('notes', 'POST').join(' ')).not.toContain('handleCors');
    expect(hooksOf('register', 'POST').join(' ')).not.toContain('handleCors');
  });
});
