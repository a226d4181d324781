/**
 * The auth core in an app of its own (docs/spec.md 3 "Session" and "Remember-me"
 * rows, 5.1, 5.2, 7 rule 9; docs/auth.md): the session guard and the
 * guards, remember-me, throttling windows, events, signOutEverywhere, key
 * rotation — real HTTP, real PostgreSQL, a clock the tests move.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../runtime/app/index.js';
import { generateAppKey } from '../../../runtime/config/app-key.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { authApp, Clock, MemoryUsers, seen } from './support/auth-app.js';
import { Client, type Reply } from './support/client.js';

const PASSWORD = 'correct horse battery';
const KEY = generateAppKey();
const users = new MemoryUsers();
const clock = new Clock();
const app = authApp(users, clock);
let database: TestDatabase;
let t: TestApp;

beforeAll(async () => {
  database = await createTestDatabase('authcore');
  t = await createTestApp(app, { databaseUrl: database.url, env: { APP_KEY: KEY, APP_DEBUG: 'true' } });
});
afterAll(async () => {
  await t?.close();
  await database?.drop();
});
beforeEach(async () => {
  users.restore();
  seen.length = 0;
  await t.db.deleteFrom('bindery_cache' as any).execute();
});

/** Fetch a CSRF token for the client's session (JSON clients send it in X-CSRF-Token). */
async function prime(c: Client): Promise<void> {
  c.token = (await c.send('GET', '/token', { headers: { accept: 'application/json' } })).json().token;
}

async function login(c: Client, email: string, password = PASSWORD, remember = false): Promise<Reply> {
  await prime(c);
  const res = await c.json('POST', '/login', { email, password, remember });
  await prime(c);
  return res;
}

const get = (c: Client, path: string) => c.send('GET', path, { headers: { accept: 'application/json' } });
const removed = (res: Reply, name: string) => res.cookies.find((x) => x.name === name)?.attributes['max-age'] === '0';

describe('Session guard | the current user', () => {
  it('is loaded once per request, on first use, and not at all when only the ID is read', async () => {
    const user = await users.add('once@example.test', PASSWORD);
    const c = new Client(t.url);
    expect((await login(c, user.email)).status).toBe(200);
    users.calls.findById = 0;
    expect((await get(c, '/me')).json()).toEqual({ id: String(user.id), via: 'session', email: 'once@example.test' });
    expect(users.calls.findById).toBe(1);
    users.calls.findById = 0;
    expect((await get(c, '/id-only')).json()).toEqual({ id: String(user.id) });
    expect(users.calls.findById).toBe(0);
  });

  it('asking for the current user while it is being loaded is an error (BINDERY_AUTH_USER_LOADING)', async () => {
    const user = await users.add('loop@example.test', PASSWORD);
    const c = new Client(t.url);
    await login(c, user.email);
    expect((await get(c, '/loop')).json()).toEqual({ code: 'BINDERY_AUTH_USER_LOADING' });
  });

  it('a guest is the shared guest identity; a deleted user ends the session (guest, cookie removed)', async () => {
    const c = new Client(t.url);
    expect((await get(c, '/whoami')).json()).toEqual({ id: null, via: null, user: null, guest: true });
    const user = await users.add('gone@example.test', PASSWORD);
    await login(c, user.email);
    users.byId.delete(user.id);
    const res = await get(c, '/whoami');
    expect(res.json()).toMatchObject({ user: null });
    expect(removed(res, 'app_session')).toBe(true);
    expect((await get(c, '/me')).status).toBe(401);
  });
});

describe('Guards | require and guest', () => {
  it('require: JSON guests get 401; a browser is sent to AUTH_LOGIN_URL and the page (with its query) comes back after login', async () => {
    const user = await users.add('intended@example.test', PASSWORD);
    const c = new Client(t.url);
    expect((await get(c, '/me')).status).toBe(401);
    const page = await c.send('GET', '/me?tab=2', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(303);
    expect(page.location).toBe('/login');
    const res = await login(c, user.email);
    expect(res.json()).toEqual({ id: user.id, next: '/me?tab=2' });
    // Taken out of the session: the next login goes to AUTH_HOME_URL.
    await c.send('POST', '/logout', { headers: { 'x-csrf-token': c.token!, accept: 'application/json' } });
    expect((await login(c, user.email)).json()).toEqual({ id: user.id, next: '/dashboard' });
  });

  it('require on a route without a session (the API group) answers 401 with WWW-Authenticate: Bearer', async () => {
    const res = await new Client(t.url).send('GET', '/api', { headers: { accept: 'text/html' } });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer');
  });

  it('auth placed before session makes every page redirect to login, even for a signed-in user (docs/spec.md 5.1 rule 1)', async () => {
    const user = await users.add('reversed@example.test', PASSWORD);
    const c = new Client(t.url);
    await login(c, user.email);
    expect((await get(c, '/me')).status).toBe(200);
    const res = await c.send('GET', '/reversed', { headers: { accept: 'text/html' } });
    expect(res.status).toBe(303);
    expect(res.location).toBe('/login');
  });

  it('guest: a signed-in user is sent to AUTH_HOME_URL; a guest passes', async () => {
    const user = await users.add('guestguard@example.test', PASSWORD);
    const c = new Client(t.url);
    expect((await get(c, '/guest-only')).status).toBe(200);
    await login(c, user.email);
    const res = await get(c, '/guest-only');
    expect(res.status).toBe(303);
    expect(res.location).toBe('/dashboard');
  });
});

describe('Remember-me | the cookie', () => {
  it('needs both remember-token lookups: without one, a login with remember is an error and changes nothing', async () => {
    const user = await users.add('noremember@example.test', PASSWORD);
    delete (users.provider as { writeRememberToken?: unknown }).writeRememberToken;
    const c = new Client(t.url);
    await prime(c);
    const before = c.cookies.get('app_session');
    const res = await c.json('POST', '/login', { email: user.email, password: PASSWORD, remember: true });
    expect(res.status).toBe(500);
    expect(res.json().detail).toMatch(/no writeRememberToken; remember-me needs both \(docs\/spec\.md 5\.2\)/);
    expect(c.cookies.get('app_session')).toBe(before);
    expect((await get(c, '/me')).status).toBe(401);
    // Without remember the same provider signs in.
    expect((await c.json('POST', '/login', { email: user.email, password: PASSWORD })).status).toBe(200);
  });

  it('a remember cookie is removed when the provider cannot read remember tokens', async () => {
    const user = await users.add('noread@example.test', PASSWORD);
    const c = new Client(t.url);
    await login(c, user.email, PASSWORD, true);
    c.cookies.delete('app_session');
    delete (users.provider as { readRememberToken?: unknown }).readRememberToken;
    const res = await get(c, '/me');
    expect(res.status).toBe(401);
    expect(removed(res, 'app_remember')).toBe(true);
  });

  it('a login without remember removes the remember cookie the browser has', async () => {
    const user = await users.add('clears@example.test', PASSWORD);
    const c = new Client(t.url);
    await login(c, user.email, PASSWORD, true);
    expect(c.cookies.has('app_remember')).toBe(true);
    // A route without the auth middleware, so the cookie is not used before the login.
    const res = await c.json('POST', '/direct', { id: String(user.id) });
    expect(res.status).toBe(200);
    expect(removed(res, 'app_remember')).toBe(true);
    expect(c.cookies.has('app_remember')).toBe(false);
  });

  it('stops working after AUTH_REMEMBER_LIFETIME (720h), even if the browser kept it', async () => {
    const user = await users.add('expires@example.test', PASSWORD);
    const c = new Client(t.url);
    await login(c, user.email, PASSWORD, true);
    const kept = c.cookies.get('app_remember')!;
    clock.advance(720 * 3_600_000 - 1000);
    const early = new Client(t.url);
    early.cookies.set('app_remember', kept);
    expect((await get(early, '/me')).status).toBe(200);
    clock.advance(1000);
    const late = new Client(t.url);
    late.cookies.set('app_remember', kept);
    const res = await get(late, '/me');
    expect(res.status).toBe(401);
    expect(removed(res, 'app_remember')).toBe(true);
  });
});

describe('Throttling | windows and what is checked', () => {
  it('a throttled attempt reads no password hash; the window ends a minute after the first attempt', async () => {
    const user = await users.add('window@example.test', PASSWORD);
    const c = new Client(t.url, '127.0.0.40');
    for (let i = 0; i < 5; i++) expect((await login(c, user.email, 'wrong')).status).toBe(422);
    users.calls.passwordHashOf = 0;
    const throttled = await login(c, user.email);
    expect(throttled.status).toBe(422);
    expect(throttled.json().errors.email).toBe('Too many login attempts. Please try again in 60 seconds.');
    expect(users.calls.passwordHashOf).toBe(0);
    clock.advance(59_000);
    expect((await login(c, user.email)).json().errors.email).toBe('Too many login attempts. Please try again in 1 second.');
    clock.advance(1000);
    expect((await login(c, user.email)).status).toBe(200);
  });

  it('an address over its failures is refused before the login is even looked up', async () => {
    const c = new Client(t.url, '127.0.0.41');
    for (let i = 0; i < 50; i++) await login(c, `nobody${Math.floor(i / 5)}@example.test`, 'x');
    users.calls.findByLogin = 0;
    expect((await login(c, 'any@example.test', 'x')).json().errors.email).toMatch(/^Too many login attempts/);
    expect(users.calls.findByLogin).toBe(0);
  });
});

describe('Events | session:login_succeeded, session:login_failed, session:logout', () => {
  it('are emitted with the user, the method and the address, never the password', async () => {
    const user = await users.add('events@example.test', PASSWORD);
    const c = new Client(t.url, '127.0.0.42');
    await login(c, ' Events@Example.test ', 'wrong');
    await login(c, user.email, PASSWORD, true);
    await c.send('POST', '/logout', { headers: { 'x-csrf-token': c.token!, accept: 'application/json' } });
    await login(c, 'nobody@example.test', 'wrong');
    expect(seen).toEqual([
      {
        event: 'session:login_failed',
        payload: { login: 'events@example.test', userId: String(user.id), reason: 'credentials', ip: '127.0.0.42' },
      },
      { event: 'session:login_succeeded', payload: { userId: String(user.id), method: 'password', remember: true, ip: '127.0.0.42' } },
      { event: 'session:logout', payload: { userId: String(user.id), ip: '127.0.0.42' } },
      { event: 'session:login_failed', payload: { login: 'nobody@example.test', userId: null, reason: 'credentials', ip: '127.0.0.42' } },
    ]);
    expect(JSON.stringify(seen)).not.toContain('wrong');
  });

  it('a remember-me sign-in is a login_succeeded with method remember', async () => {
    const user = await users.add('events2@example.test', PASSWORD);
    const c = new Client(t.url);
    await login(c, user.email, PASSWORD, true);
    c.cookies.delete('app_session');
    seen.length = 0;
    expect((await get(c, '/me')).json()).toMatchObject({ via: 'remember' });
    expect(seen).toEqual([
      { event: 'session:login_succeeded', payload: { userId: String(user.id), method: 'remember', remember: true, ip: '127.0.0.1' } },
    ]);
  });
});

describe('signOutEverywhere | cookie sessions', () => {
  it('the request given stays signed in with the new fingerprint; other sessions and remembered browsers end', async () => {
    const user = await users.add('everywhere@example.test', PASSWORD);
    const mine = new Client(t.url);
    const other = new Client(t.url);
    await login(mine, user.email);
    await login(other, user.email, PASSWORD, true);
    const token = user.rememberToken;
    const res = await mine.json('POST', '/everywhere', { password: 'the new password' });
    expect(res.status).toBe(200);
    expect(user.rememberToken).not.toBe(token);
    expect((await get(mine, '/me')).status).toBe(200);
    const ended = await get(other, '/me');
    expect(ended.status).toBe(401);
    expect(removed(ended, 'app_remember')).toBe(true);
  });
});

describe('Key rotation | sessions outlive an APP_KEY change', () => {
  it('a session made under the previous key stays signed in (the fingerprint is re-made under the new key)', async () => {
    const user = await users.add('rotate@example.test', PASSWORD);
    const c = new Client(t.url);
    await login(c, user.email);
    const rotated = await createTestApp(app, { databaseUrl: database.url, env: { APP_KEY: generateAppKey(), APP_PREVIOUS_KEYS: KEY } });
    try {
      const r = c.clone();
      const moved = new Client(rotated.url);
      for (const [k, v] of r.cookies) moved.cookies.set(k, v);
      const res = await get(moved, '/me');
      expect(res.status).toBe(200);
      expect(res.cookies.some((x) => x.name === 'app_session' && x.attributes['max-age'] !== '0')).toBe(true);
      expect((await get(moved, '/me')).status).toBe(200);
    } finally {
      await rotated.close();
    }
  });
});

describe('Secure cookies | __Host- prefix', () => {
  it('with SESSION_SECURE=true the remember cookie is __Host-app_remember, Secure, and AUTH_REMEMBER_LIFETIME sets its Max-Age', async () => {
    const secure = await createTestApp(app, { databaseUrl: database.url, env: { SESSION_SECURE: 'true', AUTH_REMEMBER_LIFETIME: '1h' } });
    try {
      const user = await users.add('secure@example.test', PASSWORD);
      const c = new Client(secure.url);
      c.token = (await c.send('GET', '/token', { headers: { accept: 'application/json' } })).json().token;
      const res = await c.json('POST', '/login', { email: user.email, password: PASSWORD, remember: true });
      const cookie = res.cookies.find((x) => x.name === '__Host-app_remember')!;
      expect(cookie.attributes).toMatchObject({ 'max-age': '3600', secure: '', httponly: '', path: '/', samesite: 'Lax' });
      expect(cookie.attributes.domain).toBeUndefined();
      c.cookies.delete('__Host-app_session');
      expect((await get(c, '/me')).json()).toMatchObject({ via: 'remember' });
    } finally {
      await secure.close();
    }
  });
});

describe('Session | idle longer than SESSION_LIFETIME', () => {
  it('the session ends (guest); with remember-me the user is signed into a new session', async () => {
    const user = await users.add('idle@example.test', PASSWORD);
    const plain = new Client(t.url);
    const remembered = new Client(t.url);
    await login(plain, user.email);
    await login(remembered, user.email, PASSWORD, true);
    clock.advance(2 * 3_600_000 + 1000);
    expect((await get(plain, '/me')).status).toBe(401);
    const res = await get(remembered, '/me');
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ via: 'remember' });
  });
});

describe('signOutEverywhere | server-side sessions (SESSION_DRIVER=database)', () => {
  it('deletes every other session row of the user at once; the given request keeps its session', async () => {
    const db = await createTestApp(app, { databaseUrl: database.url, env: { APP_KEY: KEY, SESSION_DRIVER: 'database' } });
    try {
      const user = await users.add('rows@example.test', PASSWORD);
      const mine = new Client(db.url);
      const other = new Client(db.url);
      for (const c of [mine, other]) {
        c.token = (await c.send('GET', '/token', { headers: { accept: 'application/json' } })).json().token;
        expect((await c.json('POST', '/login', { email: user.email, password: PASSWORD })).status).toBe(200);
        c.token = (await c.send('GET', '/token', { headers: { accept: 'application/json' } })).json().token;
      }
      const rows = () =>
        db.db
          .selectFrom('bindery_sessions' as any)
          .select('id')
          .where('user_id', '=', String(user.id))
          .execute();
      expect(await rows()).toHaveLength(2);
      expect((await mine.json('POST', '/everywhere', { password: 'another new password' })).status).toBe(200);
      expect(await rows()).toHaveLength(1);
      expect((await get(mine, '/me')).status).toBe(200);
      expect((await get(other, '/me')).status).toBe(401);
      // Logout deletes the session row too (a copy of the cookie stops working).
      const copy = mine.clone();
      expect((await mine.send('POST', '/logout', { headers: { 'x-csrf-token': mine.token!, accept: 'application/json' } })).status).toBe(
        200,
      );
      expect(await rows()).toHaveLength(0);
      expect((await get(copy, '/me')).status).toBe(401);
    } finally {
      await db.close();
    }
  });
});
