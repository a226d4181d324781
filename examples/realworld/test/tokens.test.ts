/**
 * What keeps accounts safe (README.md "Tokens and limits"): tokens expire,
 * a user keeps a bounded number of them (`CONDUIT_TOKENS_PER_USER`, 3
 * here), a new password ends every token but the caller's, and sign-up and
 * login are limited (429 with `Retry-After`). On the app's test clock.
 */
import type { ApiTokens } from 'bindery/auth/tokens';
import { testClock } from 'bindery/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boot, call, type Kit, register } from './support.js';

/** The kit of the describe block running (each boots its own). */
let t: Kit;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The status of `GET /api/user` with `token`. */
const statusWith = async (token: string) => (await call(t, 'GET', '/user', undefined, token)).status;

/** `POST /api/users/login` for `<name>@example.com`. */
const logIn = (name: string, password = 'password') =>
  call(t, 'POST', '/users/login', { user: { email: `${name}@example.com`, password } });

/** Log `name` in; the new token. */
async function login(name: string, password = 'password'): Promise<string> {
  const res = await logIn(name, password);
  if (res.status !== 200) throw new Error(`login ${name}: ${res.status} ${res.text}`);
  return res.body.user.token as string;
}

/** Every token row of the user `name`, expired ones included. */
async function tokenRows(name: string) {
  const user = await t.db.selectFrom('users').select('id').where('username', '=', name).executeTakeFirstOrThrow();
  return (t.app.running.services['apiTokens'] as ApiTokens).list(String(user.id));
}

describe('tokens', () => {
  const clock = testClock();
  beforeAll(async () => {
    t = await boot({ clock, env: { CONDUIT_TOKENS_PER_USER: '3' } });
  });
  afterAll(() => t?.close());

  it('expire after CONDUIT_TOKEN_LIFETIME (30 days by default): 401, and logging in again gives a working one', async () => {
    const token = await register(t, 'expiring');
    clock.advance(30 * DAY - MINUTE);
    expect(await statusWith(token)).toBe(200);
    clock.advance(MINUTE);
    const expired = await call(t, 'GET', '/user', undefined, token);
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({ errors: { body: [expect.any(String)] } });
    expect(await statusWith(await login('expiring'))).toBe(200);
    // The expired token is gone from the table with that login.
    expect(await tokenRows('expiring')).toHaveLength(1);
  });

  it('pile up no further than CONDUIT_TOKENS_PER_USER: a login past it revokes the oldest', async () => {
    const first = await register(t, 'busy');
    const logins = [await login('busy'), await login('busy'), await login('busy')];
    expect(await statusWith(first)).toBe(401);
    for (const token of logins) expect(await statusWith(token)).toBe(200);
    for (let i = 0; i < 5; i++) await login('busy');
    expect(await tokenRows('busy')).toHaveLength(3);
  });

  it('a new password ends every other token of the user; the caller’s token, in the answer, keeps working', async () => {
    const registered = await register(t, 'mover');
    const laptop = await login('mover');
    const phone = await login('mover');
    // Other changes end nothing.
    expect((await call(t, 'PUT', '/user', { user: { bio: 'Moving.' } }, phone)).status).toBe(200);
    expect(await statusWith(laptop)).toBe(200);
    const res = await call(t, 'PUT', '/user', { user: { password: 'a-new-password' } }, phone);
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ username: 'mover', token: phone });
    expect(await statusWith(phone)).toBe(200);
    expect(await statusWith(laptop)).toBe(401);
    expect(await statusWith(registered)).toBe(401);
    expect(await tokenRows('mover')).toHaveLength(1);
    expect((await logIn('mover')).status).toBe(422);
    expect(await statusWith(await login('mover', 'a-new-password'))).toBe(200);
  });
});

describe('limits', () => {
  // The clock stays near the real time here: a route's Retry-After is counted from the real time.
  const clock = testClock();
  beforeAll(async () => {
    t = await boot({ clock });
  });
  afterAll(() => t?.close());

  it('sign-up: 20 an hour per client address, then 429 with Retry-After (nobody registered)', async () => {
    for (let i = 0; i < 20; i++) expect((await call(t, 'POST', '/users', { user: {} })).status).toBe(422);
    const refused = await call(t, 'POST', '/users', { user: { username: 'late', email: 'late@example.com', password: 'password' } });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(3600);
    expect(refused.body).toEqual({ errors: { body: [expect.stringMatching(/^Too many requests/)] } });
    expect(await t.db.selectFrom('users').select('id').where('username', '=', 'late').executeTakeFirst()).toBeUndefined();
    clock.advance(HOUR);
    expect((await call(t, 'POST', '/users', { user: { username: 'late', email: 'late@example.com', password: 'password' } })).status).toBe(
      201,
    );
  });

  it('login: past 5 attempts a minute for one account from one address, 429 with Retry-After — even with the right password', async () => {
    await register(t, 'guarded');
    for (let i = 0; i < 5; i++) expect((await logIn('guarded', 'wrong-password')).status).toBe(422);
    const refused = await logIn('guarded');
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    expect(refused.body).toEqual({
      errors: { body: [`Too many login attempts. Please try again in ${wait} second${wait === 1 ? '' : 's'}.`] },
    });
    clock.advance(MINUTE);
    expect((await logIn('guarded')).status).toBe(200);
  });
});
