/**
 * CSRF over real HTTP (docs/spec.md 5.4): the two layers on
 * every method × Sec-Fetch-Site × Origin × token combination, the JSON
 * exemption, `_token` in URL-encoded and multipart forms, the 403 by client
 * kind.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Encrypter } from '../../../runtime/crypto/encrypter.js';
import { KeyRing } from '../../../runtime/crypto/key-ring.js';
import { CROSS_ORIGIN_MESSAGE, PAGE_EXPIRED_MESSAGE } from '../../../runtime/csrf/csrf-error.js';
import { parseRecord } from '../../../runtime/session/session-record.js';
import { closeAll, rawRequest } from '../http/support/server.js';
import { Jar } from '../session/support/jar.js';
import { startSessionServer, type SessionServer } from '../session/support/session-server.js';

let s: SessionServer;
let cookie: string;
let fresh: () => Promise<string>;
let reused: string;
let unmasked: string;
let otherSessions: string;

beforeAll(async () => {
  s = await startSessionServer();
  const jar = new Jar();
  fresh = async () => ((await (await jar.fetch(`${s.url}/s/token`)).json()) as { token: string }).token;
  reused = await fresh();
  cookie = jar.header()!;
  const record = parseRecord(
    new Encrypter(KeyRing.fromSettings(s.settings))
      .open('session', jar.get('app_session')!, { context: 'app_session' })!
      .plaintext.toString('utf8'),
  )!;
  unmasked = record.csrf;
  const other = new Jar();
  otherSessions = ((await (await other.fetch(`${s.url}/s/token`)).json()) as { token: string }).token;
});
afterAll(async () => {
  await s?.manager.close();
  await closeAll();
});

const SAFE = ['GET', 'HEAD', 'OPTIONS'] as const;
const UNSAFE = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;
const SITES = [undefined, 'same-origin', 'none', 'same-site', 'cross-site'] as const;
const ORIGINS = ['absent', 'same', 'other'] as const;
const TOKENS = ['right', 'reused', 'wrong', 'absent', 'unmasked'] as const;

function expected(
  method: string,
  site: (typeof SITES)[number],
  origin: (typeof ORIGINS)[number],
  token: (typeof TOKENS)[number],
): 'ok' | 'cross-origin' | 'expired' {
  if ((SAFE as readonly string[]).includes(method)) return 'ok';
  const layer1 = site !== undefined ? site === 'same-origin' || site === 'none' : origin !== 'other';
  if (!layer1) return 'cross-origin';
  return token === 'right' || token === 'reused' ? 'ok' : 'expired';
}

describe('CSRF | the matrix: method × Sec-Fetch-Site × Origin × token', () => {
  it('safe methods always pass; unsafe ones need layer 1 (same origin) and layer 2 (a masked form of the session token)', async () => {
    const failures: string[] = [];
    let count = 0;
    for (const method of [...SAFE, ...UNSAFE]) {
      for (const site of SITES) {
        for (const origin of ORIGINS) {
          for (const token of TOKENS) {
            const headers: Record<string, string> = { accept: 'application/json', cookie };
            if (site !== undefined) headers['sec-fetch-site'] = site;
            if (origin === 'same') headers.origin = s.url;
            if (origin === 'other') headers.origin = 'https://evil.example';
            if (token === 'right') headers['x-csrf-token'] = await fresh();
            if (token === 'reused') headers['x-csrf-token'] = reused;
            if (token === 'wrong') headers['x-csrf-token'] = otherSessions;
            if (token === 'unmasked') headers['x-csrf-token'] = unmasked;
            const res = await rawRequest(`${s.url}/csrf`, { method, headers });
            count++;
            const want = expected(method, site, origin, token);
            const label = `${method} site=${site ?? '-'} origin=${origin} token=${token}`;
            if (want === 'ok') {
              const okStatus = method === 'GET' || method === 'HEAD' || method === 'OPTIONS' ? 200 : 204;
              if (res.status !== okStatus) failures.push(`${label}: ${res.status}, wanted ${okStatus}`);
            } else {
              const detail = method === 'HEAD' ? '' : (JSON.parse(res.body) as { detail?: string }).detail;
              const message = want === 'cross-origin' ? CROSS_ORIGIN_MESSAGE : PAGE_EXPIRED_MESSAGE;
              if (res.status !== 403 || detail !== message) failures.push(`${label}: ${res.status} ${detail}, wanted 403 ${want}`);
            }
          }
        }
      }
    }
    expect(count).toBe(7 * 5 * 3 * 5);
    expect(failures).toEqual([]);
  });

  it('an Origin of null or malformed is refused; a same Origin with another port is another origin', async () => {
    for (const origin of ['null', 'not a url', s.url.replace(/:(\d+)$/, (_m, p) => `:${Number(p) + 1}`)]) {
      const res = await rawRequest(`${s.url}/csrf`, {
        method: 'POST',
        headers: { accept: 'application/json', cookie, origin, 'x-csrf-token': await fresh() },
      });
      expect(res.status, origin).toBe(403);
      expect(JSON.parse(res.body).detail).toBe(CROSS_ORIGIN_MESSAGE);
    }
  });

  it('a token from before regenerate (sign-in) no longer matches', async () => {
    const jar = new Jar();
    const before = ((await (await jar.fetch(`${s.url}/s/token`)).json()) as { token: string }).token;
    await jar.fetch(`${s.url}/s/regenerate`);
    const res = await jar.fetch(`${s.url}/csrf`, { method: 'POST', headers: { accept: 'application/json', 'x-csrf-token': before } });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { detail: string }).detail).toBe(PAGE_EXPIRED_MESSAGE);
  });

  it('each render masks the token with a fresh pad', async () => {
    const tokens = new Set<string>();
    for (let i = 0; i < 5; i++) tokens.add(await fresh());
    expect(tokens.size).toBe(5);
    for (const t of tokens) expect(t).toMatch(/^[A-Za-z0-9_-]{86}$/);
  });
});

describe('CSRF | JSON clients without a session cookie are exempt', () => {
  it('a JSON body without a session cookie needs no token and passes layer 1 (curl)', async () => {
    for (const type of ['application/json', 'application/json; charset=utf-8', 'application/vnd.api+json']) {
      const res = await rawRequest(`${s.url}/csrf`, { method: 'POST', headers: { 'content-type': type }, body: '{}' });
      expect(res.status, type).toBe(204);
    }
  });

  it('a JSON body with the session cookie is checked: 403 without the header, 204 with it', async () => {
    const bare = await rawRequest(`${s.url}/csrf`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: '{}' });
    expect(bare.status).toBe(403);
    const ok = await rawRequest(`${s.url}/csrf`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, 'x-csrf-token': await fresh() },
      body: '{}',
    });
    expect(ok.status).toBe(204);
  });

  it('other bodies without a cookie are not exempt: a form, or no body at all', async () => {
    const form = await rawRequest(`${s.url}/csrf`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: 'a=1',
    });
    expect(form.status).toBe(403);
    const none = await rawRequest(`${s.url}/csrf`, { method: 'DELETE', headers: { accept: 'application/json' } });
    expect(none.status).toBe(403);
  });
});

describe('CSRF | the form field _token', () => {
  it('counts in an URL-encoded form', async () => {
    const ok = await rawRequest(`${s.url}/csrf`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
      body: `a=1&_token=${await fresh()}`,
    });
    expect(ok.status).toBe(204);
    const bad = await rawRequest(`${s.url}/csrf`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, accept: 'application/json' },
      body: `a=1&_token=${otherSessions}`,
    });
    expect(bad.status).toBe(403);
  });

  it('counts in a multipart form, with a file', async () => {
    const send = async (token: string) => {
      const form = new FormData();
      form.set('_token', token);
      form.set('doc', new Blob(['hello']), 'hello.txt');
      return fetch(`${s.url}/upload`, { method: 'POST', headers: { cookie, accept: 'application/json' }, body: form });
    };
    const ok = await send(await fresh());
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ size: 5 });
    expect((await send(otherSessions)).status).toBe(403);
    expect((await send('')).status).toBe(403);
  });
});

describe('CSRF | the 403 by client kind', () => {
  it('API clients get problem details; browsers an HTML page saying to reload, or that the request came from another site', async () => {
    const api = await rawRequest(`${s.url}/csrf`, { method: 'POST', headers: { accept: 'application/json', cookie } });
    expect(api.status).toBe(403);
    expect(api.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(api.body)).toMatchObject({ type: 'about:blank', status: 403, detail: PAGE_EXPIRED_MESSAGE });

    const expired = await rawRequest(`${s.url}/csrf`, {
      method: 'POST',
      headers: { accept: 'text/html', cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a=1',
    });
    expect(expired.status).toBe(403);
    expect(expired.headers['content-type']).toMatch(/^text\/html/);
    expect(expired.body).toContain('This page has expired. Reload the page and try again.');

    const foreign = await rawRequest(`${s.url}/csrf`, {
      method: 'POST',
      headers: { accept: 'text/html', cookie, 'sec-fetch-site': 'cross-site' },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toContain('cross-origin request');
  });

  it('the csrf middleware without the session middleware before it is a 500 naming the fix', async () => {
    const res = await rawRequest(`${s.url}/csrf-only`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a=1',
    });
    expect(res.status).toBe(500);
    expect(s.logs.some((l) => l.code === 'BINDERY_CSRF_WITHOUT_SESSION')).toBe(true);
  });
});
