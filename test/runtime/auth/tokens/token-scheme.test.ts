/**
 * The scheme of a group and optional authentication over real HTTP and
 * PostgreSQL (docs/tokens.md "The scheme of a group", "Optional
 * authentication"): `Authorization: Token <token>` on a group that names
 * `Token`, guests and users on one route, 401 with `WWW-Authenticate`
 * naming the scheme on a required route.
 */
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, defineApp, type TestApp } from '../../../../runtime/app/index.js';
import { type ApiTokens, presentedToken, tokens } from '../../../../runtime/auth/tokens/index.js';
import type { RequestContext } from '../../../../runtime/http/context.js';
import type { RouteDefinition } from '../../../../runtime/routing/route-table.js';
import { createTestDatabase, type TestDatabase } from '../../../support/database.js';
import { fakeAuth, insertUser } from './fake-auth.js';

const route = (name: string, path: string, middleware: string[], tokenScheme?: string): RouteDefinition => ({
  name,
  method: 'GET',
  path,
  group: null,
  middleware,
  result: 'ok',
  fields: [],
  validate: null,
  output: null,
  origin: `test:${name}`,
  ...(tokenScheme === undefined ? {} : { tokenScheme }),
});
const who = (_input: unknown, ctx: RequestContext) => ({
  signedIn: ctx.auth.signedIn,
  id: ctx.auth.id,
  presented: presentedToken(ctx) ?? null,
});

const app = defineApp({
  name: 'token_scheme_test',
  root: process.cwd(),
  routes: [
    route('user', '/user', ['token', 'require'], 'Token'),
    route('articles', '/articles', ['token'], 'Token'),
    route('bearer', '/bearer', ['token', 'require']),
    { ...route('listed', '/listed', ['token', 'require'], 'Token'), errorFormat: { format: 'lists', keys: 'leaf', other: 'body' } },
  ],
  handlers: { user: who, articles: who, bearer: who, listed: who },
  migrations: [],
  setup: [fakeAuth(), tokens()],
});

let database: TestDatabase;
let t: TestApp;
let db: Kysely<any>;
let apiTokens: ApiTokens;

beforeAll(async () => {
  database = await createTestDatabase('token_scheme');
  t = await createTestApp(app, { databaseUrl: database.url });
  db = t.db;
  apiTokens = t.running.services.apiTokens as ApiTokens;
});
afterAll(async () => {
  await t?.close();
  await database?.drop();
});

async function call(path: string, authorization?: string) {
  const res = await fetch(`${t.url}${path}`, {
    headers: { accept: 'application/json', ...(authorization === undefined ? {} : { authorization }) },
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text), challenge: res.headers.get('www-authenticate') };
}

async function tokenOf() {
  const user = await insertUser(db);
  const { plain } = await apiTokens.create(String(user.id), { name: 'login' });
  return { id: String(user.id), plain };
}

describe('the scheme of a group', () => {
  it('signs a request in by Authorization: Token <token> (any case), and hands the handler the token it presented', async () => {
    const { id, plain } = await tokenOf();
    const res = await call('/user', `Token ${plain}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ signedIn: true, id, presented: plain });
    expect((await call('/user', `token   ${plain}`)).body).toMatchObject({ signedIn: true, id });
  });

  it('answers 401 naming the scheme for a missing token, another scheme, or a bad token on a required route', async () => {
    const { plain } = await tokenOf();
    const missing = await call('/user');
    expect(missing.status).toBe(401);
    expect(missing.challenge).toBe('Token');
    const bearer = await call('/user', `Bearer ${plain}`);
    expect(bearer.status).toBe(401);
    expect(bearer.challenge).toBe('Token');
    for (const bad of ['Token nonsense', 'Token ', `Token ${plain}x`, 'Token 999|aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa']) {
      const res = await call('/user', bad);
      expect(res.status, bad).toBe(401);
      expect(res.challenge, bad).toBe('Token error="invalid_token"');
      expect(res.body.status).toBe(401);
    }
  });

  it('keeps Bearer on a group that names no scheme', async () => {
    const { id, plain } = await tokenOf();
    expect((await call('/bearer', `Bearer ${plain}`)).body).toMatchObject({ signedIn: true, id });
    const res = await call('/bearer', `Token ${plain}`);
    expect(res.status).toBe(401);
    expect(res.challenge).toBe('Bearer');
  });
});

describe('optional authentication', () => {
  it('serves a guest without a header, and the user with a good token, from one handler', async () => {
    const guest = await call('/articles');
    expect(guest.status).toBe(200);
    expect(guest.body).toEqual({ signedIn: false, id: null, presented: null });
    const { id, plain } = await tokenOf();
    const user = await call('/articles', `Token ${plain}`);
    expect(user.status).toBe(200);
    expect(user.body).toEqual({ signedIn: true, id, presented: plain });
  });

  it('treats another scheme as no token (a guest), and a bad token of its scheme as 401', async () => {
    expect((await call('/articles', 'Basic dXNlcjpwYXNz')).body).toMatchObject({ signedIn: false });
    const bad = await call('/articles', 'Token 12|nope');
    expect(bad.status).toBe(401);
    expect(bad.challenge).toBe('Token error="invalid_token"');
  });

  it('answers 401 for a revoked token on an optional route', async () => {
    const { id, plain } = await tokenOf();
    expect((await call('/articles', `Token ${plain}`)).status).toBe(200);
    await apiTokens.revokeAll(id);
    expect((await call('/articles', `Token ${plain}`)).status).toBe(401);
  });
});

describe('a 401 in the lists error format', () => {
  it('keeps the status and the challenge, with the message under body', async () => {
    const missing = await call('/listed');
    expect(missing.status).toBe(401);
    expect(missing.challenge).toBe('Token');
    expect(missing.body).toEqual({ errors: { body: [expect.any(String)] } });
    const bad = await call('/listed', 'Token 1|nope');
    expect(bad.status).toBe(401);
    expect(bad.challenge).toBe('Token error="invalid_token"');
    expect(bad.body).toEqual({ errors: { body: ['The token is invalid, expired or revoked; sign in again or create a new one.'] } });
  });
});
