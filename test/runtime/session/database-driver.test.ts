/**
 * `SESSION_DRIVER=database` over real HTTP and PostgreSQL (docs/spec.md 5.1 rule
 * 7, 9): the table comes from the `session` migration set,
 * the cookie holds only the encrypted ID, and logout/invalidate and
 * regenerate revoke, so a copied cookie stops working.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, defineApp, type TestApp } from '../../../runtime/app/index.js';
import { Encrypter } from '../../../runtime/crypto/encrypter.js';
import { KeyRing } from '../../../runtime/crypto/key-ring.js';
import { decodeAppKey, generateAppKey } from '../../../runtime/config/app-key.js';
import { session } from '../../../runtime/session/index.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { Jar, setCookies } from './support/jar.js';
import { Clock, sessionHandlers, sessionRoutes, VIEWS_DIR } from './support/session-server.js';

const clock = new Clock();
const app = defineApp({
  name: 'sessiondb',
  root: fileURLToPath(new URL('.', import.meta.url)),
  routes: sessionRoutes(),
  handlers: sessionHandlers(),
  viewsDir: VIEWS_DIR,
  migrations: [],
  setup: [session({ now: clock.now })],
});

const KEY = generateAppKey();
let database: TestDatabase;
let t: TestApp;

beforeAll(async () => {
  database = await createTestDatabase('sessiondb');
  t = await createTestApp(app, { databaseUrl: database.url, env: { SESSION_DRIVER: 'database', APP_KEY: KEY } });
});
afterAll(async () => {
  await t?.close();
  await database?.drop();
});

const NAME = 'app_session';
const rows = () => t.db.selectFrom('bindery_sessions').select(['id', 'user_id', 'data']).execute();

describe('Database sessions | storage', () => {
  it('applies the session migration set (source "session")', async () => {
    const applied = await t.db.selectFrom('bindery_migrations').select(['source', 'name']).where('source', '=', 'session').execute();
    expect(applied).toEqual([
      { source: 'session', name: '0001_create_bindery_sessions.sql' },
      { source: 'session', name: '0002_session_client.sql' },
    ]);
  });

  it('keeps the session in a row; the cookie holds only the encrypted ID', async () => {
    const jar = new Jar();
    await jar.fetch(`${t.url}/s/put?key=colour&value=${'teal'.repeat(50)}`);
    const value = jar.get(NAME)!;
    expect(value.length).toBeLessThan(120);
    const opened = new Encrypter(new KeyRing((decodeAppKey(KEY) as { key: Buffer }).key)).open('session-id', value, { context: NAME })!;
    const id = opened.plaintext.toString('utf8');
    const row = (await rows()).find((r) => r.id === id)!;
    expect(row.data).toMatchObject({ i: id, v: { colour: 'teal'.repeat(50) } });
    expect(await (await jar.fetch(`${t.url}/s/get?key=colour`)).json()).toEqual({ value: 'teal'.repeat(50), exists: true });
  });
});

describe('Database sessions | no row until there is something to keep', () => {
  it('1,000 cookie-less views of a page that hands out a CSRF token write no row; the token round-trips in the cookie', async () => {
    const before = (await rows()).length;
    for (let i = 0; i < 1000; i++) {
      const res = await fetch(`${t.url}/s/token`);
      expect(setCookies(res)[0]?.name).toBe(NAME);
      await res.arrayBuffer();
    }
    expect((await rows()).length - before).toBe(0);

    // The token of an empty session is checked like any other, and storing a value moves the session into a row (same ID).
    const jar = new Jar();
    const { token } = (await (await jar.fetch(`${t.url}/s/token`)).json()) as { token: string };
    const ok = await jar.fetch(`${t.url}/csrf`, {
      method: 'POST',
      headers: { 'x-csrf-token': token, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(ok.status).toBe(204);
    expect((await rows()).length - before).toBe(0);
    await jar.fetch(`${t.url}/s/put?key=colour&value=teal`);
    expect((await rows()).length - before).toBe(1);
    const again = await jar.fetch(`${t.url}/csrf`, {
      method: 'POST',
      headers: { 'x-csrf-token': token, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(again.status).toBe(204);
    expect(await (await jar.fetch(`${t.url}/s/get?key=colour`)).json()).toEqual({ value: 'teal', exists: true });
  });
});

/** What a browser sends with a form post (the form round trip answers it with 303). */
const BROWSER = {
  'content-type': 'application/x-www-form-urlencoded',
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  'sec-fetch-mode': 'navigate',
  'sec-fetch-site': 'same-origin',
};

/** A guest loads the form (its CSRF token), then posts `pairs` to it. */
async function guestPost(jar: Jar, pairs: Array<[string, string]>): Promise<Response> {
  const { token } = (await (await jar.fetch(`${t.url}/s/token`)).json()) as { token: string };
  return jar.fetch(`${t.url}/form`, {
    method: 'POST',
    headers: BROWSER,
    body: new URLSearchParams([['_token', token], ...pairs]).toString(),
  });
}

const state = async (jar: Jar) => (await (await jar.fetch(`${t.url}/s/state`)).json()) as { errors: unknown; old: unknown };

describe("Database sessions | a guest's failed form post writes no row", () => {
  it('200 failed posts of 200 guests add no row; each guest still gets its errors and old input back, once', async () => {
    const before = (await rows()).length;
    for (let i = 0; i < 200; i++) {
      const jar = new Jar();
      const res = await guestPost(jar, [
        ['title', `much too long ${i}`],
        ['note', `kept ${i}`],
      ]);
      expect(res.status).toBe(303);
      expect(await state(jar)).toEqual({
        errors: { title: 'The title field must not be greater than 10 characters.' },
        old: { title: `much too long ${i}`, note: `kept ${i}` },
      });
      expect(await state(jar)).toEqual({ errors: {}, old: {} });
    }
    expect((await rows()).length - before).toBe(0);
  });

  it("a guest's old input too large for the cookie is dropped, its errors kept: still no row", async () => {
    const before = (await rows()).length;
    const jar = new Jar();
    const res = await guestPost(jar, [
      ['title', ''],
      ['note', 'n'.repeat(5000)],
    ]);
    expect(res.status).toBe(303);
    expect(await state(jar)).toEqual({ errors: { title: 'The title field is required.' }, old: {} });
    expect((await rows()).length - before).toBe(0);
  });

  it("a signed-in user's failed post stays in the user's row, and the round trip works there too", async () => {
    const jar = new Jar();
    await jar.fetch(`${t.url}/s/login?user=314`);
    expect((await rows()).filter((r) => r.user_id === '314')).toHaveLength(1);
    const res = await guestPost(jar, [['title', 'much too long here']]);
    expect(res.status).toBe(303);
    expect((await rows()).filter((r) => r.user_id === '314')).toHaveLength(1);
    expect(await state(jar)).toEqual({
      errors: { title: 'The title field must not be greater than 10 characters.' },
      old: { title: 'much too long here' },
    });
  });
});

describe('Database sessions | revocation', () => {
  it('a cookie copied before logout (invalidate) stops working after it', async () => {
    const jar = new Jar();
    await jar.fetch(`${t.url}/s/login?user=42`);
    const copy = jar.get(NAME)!;
    expect(await (await fetch(`${t.url}/s/whoami`, { headers: { cookie: `${NAME}=${copy}` } })).json()).toMatchObject({
      user: { id: '42', fingerprint: 'fp-42' },
    });
    expect((await rows()).some((r) => r.user_id === '42')).toBe(true);

    const out = await jar.fetch(`${t.url}/s/invalidate`);
    expect(setCookies(out)[0]?.attributes['max-age']).toBe('0');
    expect((await rows()).some((r) => r.user_id === '42')).toBe(false);

    const stolen = await fetch(`${t.url}/s/whoami`, { headers: { cookie: `${NAME}=${copy}` } });
    expect(await stolen.json()).toEqual({ user: null, id: null });
    expect(setCookies(stolen)[0]?.attributes['max-age']).toBe('0');
  });

  it('regenerate (sign-in) revokes the old ID: a cookie from before stops working', async () => {
    const jar = new Jar();
    await jar.fetch(`${t.url}/s/put?key=cart&value=3`);
    const before = jar.get(NAME)!;
    await jar.fetch(`${t.url}/s/login?user=7`);
    expect(await (await fetch(`${t.url}/s/get?key=cart`, { headers: { cookie: `${NAME}=${before}` } })).json()).toEqual({
      value: null,
      exists: false,
    });
    expect(await (await jar.fetch(`${t.url}/s/get?key=cart`)).json()).toEqual({ value: '3', exists: true });
  });

  it('services.sessions.revokeUser ends every other session of the user', async () => {
    const a = new Jar();
    const b = new Jar();
    const c = new Jar();
    await a.fetch(`${t.url}/s/login?user=99`);
    await b.fetch(`${t.url}/s/login?user=99`);
    await c.fetch(`${t.url}/s/login?user=100`);
    expect(await (await a.fetch(`${t.url}/s/revoke-others`)).json()).toEqual({ ended: 1 });
    expect(((await (await b.fetch(`${t.url}/s/whoami`)).json()) as { user: unknown }).user).toBeNull();
    expect(((await (await a.fetch(`${t.url}/s/whoami`)).json()) as { user: unknown }).user).toEqual({ id: '99', fingerprint: 'fp-99' });
    expect(((await (await c.fetch(`${t.url}/s/whoami`)).json()) as { user: unknown }).user).toEqual({ id: '100', fingerprint: 'fp-100' });
  });

  it('an expired session is refused and its row deleted', async () => {
    const jar = new Jar();
    await jar.fetch(`${t.url}/s/put?key=a&value=1`);
    const before = (await rows()).length;
    clock.advance(2 * 3_600_000 + 1);
    const res = await jar.fetch(`${t.url}/s/get?key=a`);
    expect(await res.json()).toEqual({ value: null, exists: false });
    expect((await rows()).length).toBe(before - 1);
  });
});
