/**
 * `AuthService.verifyCredentials` (docs/tokens.md "Issuing a token at
 * login"): an API login without a session — the user for the right
 * password, the login error for a wrong one or an unknown account, the
 * throttle, and no session cookie — over real HTTP and PostgreSQL.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../runtime/app/index.js';
import { generateAppKey } from '../../../runtime/config/app-key.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { field, route } from '../http/support/routes.js';
import { authApp, Clock, MemoryUsers, type MemoryUser } from './support/auth-app.js';

const PASSWORD = 'correct horse battery';
const users = new MemoryUsers();
const clock = new Clock();
const app = authApp(users, clock, {
  routes: [
    route({
      name: 'apiLogin',
      method: 'POST',
      path: '/api/login',
      middleware: [],
      fields: [field('email', 'string', { json: 'email' }, ['required']), field('password', 'string', { json: 'password' }, ['required'])],
    }),
  ],
  handlers: {
    apiLogin: async (input: any, ctx) => {
      const user = (await ctx.services.auth!.verifyCredentials(ctx, input.email, input.password)) as MemoryUser;
      return { id: user.id, signedIn: ctx.auth.signedIn };
    },
  },
});
let database: TestDatabase;
let t: TestApp;

beforeAll(async () => {
  database = await createTestDatabase('verify_credentials');
  t = await createTestApp(app, { databaseUrl: database.url, env: { APP_KEY: generateAppKey() } });
});
afterAll(async () => {
  await t?.close();
  await database?.drop();
});
beforeEach(async () => {
  await t.db.deleteFrom('bindery_cache' as any).execute();
});

const login = (email: string, password: string) =>
  fetch(`${t.url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ email, password }),
  });

describe('verifyCredentials', () => {
  it('returns the user for the right password, without signing in or setting a cookie', async () => {
    const user = await users.add('api@example.test', PASSWORD);
    const res = await login('API@example.test', PASSWORD);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: user.id, signedIn: false });
    expect(res.headers.get('set-cookie')).toBeNull();
  });

  it('answers the same 422 on email for a wrong password and an unknown account', async () => {
    await users.add('wrong@example.test', PASSWORD);
    const wrong = await login('wrong@example.test', 'not it');
    const unknown = await login('nobody@example.test', 'not it');
    expect(wrong.status).toBe(422);
    expect(unknown.status).toBe(422);
    const a = (await wrong.json()) as any;
    const b = (await unknown.json()) as any;
    expect(a.errors).toEqual({ email: 'These credentials do not match our records.' });
    expect(b.errors).toEqual(a.errors);
  });

  it('is throttled like a login: past the limit the password is not checked', async () => {
    await users.add('flood@example.test', PASSWORD);
    let last: Response | undefined;
    for (let i = 0; i < 6; i++) last = await login('flood@example.test', 'nope');
    expect(last!.status).toBe(422);
    expect(((await last!.json()) as any).errors.email).toMatch(/^Too many login attempts/);
    const right = await login('flood@example.test', PASSWORD);
    expect(right.status).toBe(422);
    expect(((await right.json()) as any).errors.email).toMatch(/^Too many login attempts/);
  });
});
