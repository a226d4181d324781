/**
 * A front end on another origin, in headless Chromium: a static page
 * served from another port (or, for the development default, fulfilled as
 * `http://localhost:4100`, the React/Redux front end's dev server) signs up
 * with `fetch` — `POST /api/users` with JSON, whose preflight must be
 * answered — then reads `GET /api/user` with `Authorization: Token …`.
 * The page must get the user; from an origin not allowed, the browser
 * keeps the answers from it and nobody is registered.
 *
 * Skipped, saying why, only when Chromium is not installed.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, launchChromium } from './chromium.js';
import { boot, type Kit } from './support.js';

/** The front end: sign up, then read the current user with the token it got; the outcome in `window.conduit`. */
const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Conduit front end</title></head>
<body><script>
(async () => {
  const api = new URLSearchParams(location.search).get('api');
  try {
    const signUp = await fetch(api + '/api/users', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ user: { username: 'frontend', email: 'frontend@example.com', password: 'password' } }),
    });
    const { user } = await signUp.json();
    const me = await fetch(api + '/api/user', { headers: { Authorization: 'Token ' + user.token } });
    window.conduit = { statuses: [signUp.status, me.status], token: user.token, user: (await me.json()).user };
  } catch (error) {
    window.conduit = { error: String(error) };
  }
})();
</script></body></html>`;

/** What the page ended with. */
interface Outcome {
  readonly statuses?: number[];
  readonly token?: string;
  readonly user?: Record<string, unknown>;
  readonly error?: string;
  /** The page's console messages (the browser's CORS refusals among them). */
  readonly console: string[];
}

let server: Server;
let pageOrigin: string;
let browser: Browser;

beforeAll(async () => {
  server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  pageOrigin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // http://localhost:4100, the React/Redux front end's development server, is this page too, without taking the port.
  // (Not by Playwright's request interception: it answers preflights itself.)
  browser = await launchChromium(`MAP localhost:4100 ${pageOrigin.slice('http://'.length)}`);
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => (server?.listening ? server.close(resolve) : resolve(undefined)));
});

/** Open the front end at `origin` against the API of `t`; what its script ended with, and its console. */
async function runFrontEnd(origin: string, t: Kit): Promise<Outcome> {
  const page = await browser.context.newPage();
  const messages: string[] = [];
  page.on('console', (m) => messages.push(m.text()));
  try {
    await page.goto(`${origin}/?api=${encodeURIComponent(t.url)}`);
    await page.waitForFunction(() => (globalThis as { conduit?: unknown }).conduit !== undefined);
    return { ...((await page.evaluate(() => (globalThis as { conduit?: unknown }).conduit)) as Outcome), console: messages };
  } finally {
    await page.close();
  }
}

const users = async (t: Kit) => (await t.db.selectFrom('users').select('username').execute()).map((u) => u.username);

describe('a front end on another origin, in Chromium', () => {
  describe('the origin in CORS_ORIGINS', () => {
    let t: Kit;
    beforeAll(async () => {
      t = await boot({ env: { CORS_ORIGINS: pageOrigin } });
    });
    afterAll(() => t?.close());

    it('signs up (the preflight answered) and reads the user back with its token', async () => {
      const outcome = await runFrontEnd(pageOrigin, t);
      expect(outcome).toEqual({
        statuses: [201, 200],
        token: expect.any(String),
        user: { email: 'frontend@example.com', token: outcome.token, username: 'frontend', bio: '', image: null },
        console: [],
      });
    });

    it('no longer allows the development default it replaces', async () => {
      const outcome = await runFrontEnd('http://localhost:4100', t);
      expect(outcome.error).toMatch(/Failed to fetch/);
      expect(outcome.console.join('\n')).toMatch(/Response to preflight request doesn't pass access control check/);
    });
  });

  describe('out of the box (no CORS_ORIGINS)', () => {
    let t: Kit;
    beforeAll(async () => {
      t = await boot();
    });
    afterAll(() => t?.close());

    it('a development server of a RealWorld front end (http://localhost:4100) signs up and reads the user back', async () => {
      const outcome = await runFrontEnd('http://localhost:4100', t);
      expect(outcome.statuses).toEqual([201, 200]);
      expect(outcome.user).toMatchObject({ username: 'frontend', token: outcome.token });
    });

    it('another origin: the browser keeps the answer from the page, the preflight registers nobody', async () => {
      await t.db.deleteFrom('users').execute();
      const outcome = await runFrontEnd(pageOrigin, t);
      expect(outcome.error).toMatch(/Failed to fetch/);
      expect(outcome.console.join('\n')).toMatch(/Response to preflight request doesn't pass access control check/);
      expect(await users(t)).toEqual([]);
      const preflight = await fetch(`${t.url}/api/users`, {
        method: 'OPTIONS',
        headers: { origin: pageOrigin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
      expect(preflight.status).toBe(405);
      expect([...preflight.headers.keys()].filter((h) => h.startsWith('access-control-'))).toEqual([]);
    });
  });
});

describe('the preflight of a development origin, over plain HTTP', () => {
  let t: Kit;
  beforeAll(async () => {
    t = await boot();
  });
  afterAll(() => t?.close());

  it('is answered 204 with the origin, the methods and the Authorization header, without credentials', async () => {
    const preflight = await fetch(`${t.url}/api/user`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:4200',
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:4200');
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, PUT, HEAD');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('Authorization');
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
  });
});
