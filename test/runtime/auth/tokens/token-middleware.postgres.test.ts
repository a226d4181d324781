/**
 * API tokens and the `token` middleware over real HTTP and PostgreSQL
 * (docs/spec.md 2.2, 5.5, 7 "401 … API route without a valid token";
 * docs/tokens.md): format and hashing, 401 and its `WWW-Authenticate`, schemes,
 * expiry, revocation, an owner gone, abilities (403), session users, and
 * the last-use write at most once a minute.
 */
import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, defineApp, type TestApp } from '../../../../runtime/app/index.js';
import { type ApiTokens, tokens } from '../../../../runtime/auth/tokens/index.js';
import { createTokenMiddleware } from '../../../../runtime/auth/tokens/token-middleware.js';
import { LAST_USED_INTERVAL_MS } from '../../../../runtime/auth/tokens/api-tokens.js';
import type { RequestContext } from '../../../../runtime/http/context.js';
import type { RouteDefinition } from '../../../../runtime/routing/route-table.js';
import { createTestDatabase, type TestDatabase } from '../../../support/database.js';
import { fakeAuth, insertUser } from './fake-auth.js';

const route = (name: string, path: string, middleware: string[], abilities?: string[]): RouteDefinition => ({
  name,
  method: 'GET',
  path,
  group: null,
  middleware,
  ...(abilities ? { abilities } : {}),
  result: 'ok',
  fields: [],
  validate: null,
  output: null,
  origin: `test:${name}`,
});
const who = (_input: unknown, ctx: RequestContext) => ({ via: ctx.auth.via, id: ctx.auth.id, token: ctx.auth.token });

let clock = Date.parse('2026-03-01T10:00:00Z');
const app = defineApp({
  name: 'tokens_test',
  root: process.cwd(),
  routes: [
    route('who', '/who', ['token']),
    route('plain', '/plain', ['token', 'require']),
    route('me', '/me', ['token', 'require'], ['profile:read']),
    route('mixed', '/mixed', ['session-like', 'token', 'require'], ['profile:read', 'documents:write']),
  ],
  handlers: { who, plain: who, me: who, mixed: who },
  migrations: [],
  setup: [fakeAuth(), tokens({ now: () => clock })],
});

let database: TestDatabase;
let t: TestApp;
let db: Kysely<any>;
let apiTokens: ApiTokens;

beforeAll(async () => {
  database = await createTestDatabase('tokens');
  t = await createTestApp(app, { databaseUrl: database.url });
  db = t.db;
  apiTokens = t.running.services.apiTokens as ApiTokens;
});
afterAll(async () => {
  await t?.close();
  await database?.drop();
});

async function call(path: string, authorization?: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${t.url}${path}`, {
    headers: { accept: 'application/json', ...(authorization === undefined ? {} : { authorization }), ...headers },
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text), challenge: res.headers.get('www-authenticate') };
}

async function tokenOf(abilities: string[] = ['profile:read'], lifetimeMs?: number) {
  const user = await insertUser(db);
  const made = await apiTokens.create(String(user.id), { name: 'CLI', abilities, ...(lifetimeMs === undefined ? {} : { lifetimeMs }) });
  return { user, ...made };
}

const INVALID = 'Bearer error="invalid_token"';

describe('ApiTokens | format and storage', () => {
  it('gives <id>|<secret> once: the secret is 40 base64url characters, only its SHA-256 hex is stored', async () => {
    const { plain, token } = await tokenOf();
    expect(plain).toMatch(/^[1-9]\d*\|[A-Za-z0-9_-]{40}$/);
    const [id, secret] = plain.split('|') as [string, string];
    expect(Number(id)).toBe(token.id);
    expect(Buffer.from(secret, 'base64url')).toHaveLength(30);
    const row = await db.selectFrom('api_tokens').selectAll().where('id', '=', token.id).executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(createHash('sha256').update(secret).digest('hex'));
    // No column of the table holds the secret (nor the plain token).
    const { rows } = await sql<{ text: string }>`select t::text as text from api_tokens t`.execute(db);
    for (const r of rows) {
      expect(r.text).not.toContain(secret);
      expect(r.text).not.toContain(plain);
    }
    expect(row).toMatchObject({ name: 'CLI', abilities: ['profile:read'], last_used_at: null, expires_at: null });
  });

  it('gives distinct secrets and keeps the lifetime as an expiry', async () => {
    const a = await tokenOf(['profile:read'], 90 * 86_400_000);
    const b = await tokenOf();
    expect(a.plain.split('|')[1]).not.toBe(b.plain.split('|')[1]);
    expect(a.token.expiresAt!.getTime()).toBe(clock + 90 * 86_400_000);
  });

  it('refuses an empty name or one over 100 characters (field error on name)', async () => {
    const user = await insertUser(db);
    await expect(apiTokens.create(String(user.id), { name: '   ' })).rejects.toMatchObject({
      status: 422,
      fieldErrors: { name: 'The token needs a name.' },
    });
    await expect(apiTokens.create(String(user.id), { name: 'x'.repeat(101) })).rejects.toMatchObject({ status: 422 });
    await expect(apiTokens.create(String(user.id), { name: 'é'.repeat(100) })).resolves.toMatchObject({ token: { name: 'é'.repeat(100) } });
  });
});

describe('token middleware | who the request is', () => {
  it('signs the request in as the owner, by token, with the token (never its secret)', async () => {
    const { plain, user, token } = await tokenOf();
    const res = await call('/who', `Bearer ${plain}`);
    expect(res).toMatchObject({
      status: 200,
      body: { via: 'token', id: String(user.id), token: { id: String(token.id), name: 'CLI', abilities: ['profile:read'] } },
    });
    expect(JSON.stringify(res.body)).not.toContain(plain.split('|')[1]);
  });

  it('reads the scheme in any case', async () => {
    const { plain } = await tokenOf();
    for (const scheme of ['bearer', 'BEARER', 'BeArEr']) expect((await call('/plain', `${scheme} ${plain}`)).status).toBe(200);
  });

  it('without a token: a guest; a route that needs a user answers 401 with WWW-Authenticate: Bearer', async () => {
    expect(await call('/who')).toMatchObject({ status: 200, body: { via: null, id: null, token: null } });
    expect(await call('/plain')).toMatchObject({ status: 401, challenge: 'Bearer' });
    expect(await call('/me')).toMatchObject({ status: 401, challenge: 'Bearer' });
  });

  it('ignores other schemes (a guest)', async () => {
    const { plain } = await tokenOf();
    expect(await call('/who', `Basic ${Buffer.from('a:b').toString('base64')}`)).toMatchObject({ status: 200, body: { via: null } });
    expect(await call('/plain', `Token ${plain}`)).toMatchObject({ status: 401, challenge: 'Bearer' });
  });

  it('a malformed, unknown or wrong-secret token is 401 invalid_token', async () => {
    const { plain, token } = await tokenOf();
    const secret = plain.split('|')[1]!;
    const wrong = `${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
    for (const bad of [
      'Bearer',
      'Bearer ',
      'Bearer abc',
      `Bearer ${token.id}`,
      `Bearer ${token.id}|short`,
      `Bearer 0|${secret}`,
      `Bearer ${token.id}|${secret}x`,
      `Bearer ${token.id + 100000}|${secret}`,
      `Bearer ${token.id}|${wrong}`,
      `Bearer ${secret}`,
    ]) {
      expect(await call('/who', bad), bad).toMatchObject({ status: 401, challenge: INVALID });
    }
  });

  it('an expired token is 401 invalid_token (at its expiry, not before)', async () => {
    const { plain } = await tokenOf(['profile:read'], 60_000);
    clock += 59_999;
    expect((await call('/me', `Bearer ${plain}`)).status).toBe(200);
    clock += 1;
    expect(await call('/me', `Bearer ${plain}`)).toMatchObject({ status: 401, challenge: INVALID });
  });

  it("a revoked token is 401 invalid_token; revoking another user's token ID changes nothing", async () => {
    const mine = await tokenOf();
    const theirs = await tokenOf();
    expect(await apiTokens.revoke(String(mine.user.id), theirs.token.id)).toBe(false);
    expect(await apiTokens.revoke(String(mine.user.id), 'not-an-id')).toBe(false);
    expect((await call('/me', `Bearer ${theirs.plain}`)).status).toBe(200);
    expect(await apiTokens.revoke(String(theirs.user.id), theirs.token.id)).toBe(true);
    expect(await call('/me', `Bearer ${theirs.plain}`)).toMatchObject({ status: 401, challenge: INVALID });
    expect((await call('/me', `Bearer ${mine.plain}`)).status).toBe(200);
  });

  it('a token whose owner is gone is 401 invalid_token', async () => {
    const { plain, user } = await tokenOf();
    await db.deleteFrom('users').where('id', '=', user.id).execute();
    expect(await call('/who', `Bearer ${plain}`)).toMatchObject({ status: 401, challenge: INVALID });
  });
});

describe('token middleware | abilities per route', () => {
  it("a token without the route's ability is 403 (insufficient_scope); with it, 200", async () => {
    const without = await tokenOf(['documents:read']);
    const res = await call('/me', `Bearer ${without.plain}`);
    expect(res.status).toBe(403);
    expect(res.challenge).toBe('Bearer error="insufficient_scope", scope="profile:read"');
    expect(res.body.detail).toContain('profile:read');
    expect((await call('/me', `Bearer ${(await tokenOf(['profile:read'])).plain}`)).status).toBe(200);
    // A route without abilities takes any valid token.
    expect((await call('/plain', `Bearer ${without.plain}`)).status).toBe(200);
  });

  it('a route needing two abilities needs both from a token; a user signed in by session may do anything', async () => {
    const one = await tokenOf(['profile:read']);
    expect((await call('/mixed', `Bearer ${one.plain}`)).status).toBe(403);
    const both = await tokenOf(['profile:read', 'documents:write']);
    expect((await call('/mixed', `Bearer ${both.plain}`)).status).toBe(200);
    const user = await insertUser(db);
    expect(await call('/mixed', undefined, { 'x-test-user': String(user.id) })).toMatchObject({
      status: 200,
      body: { via: 'session', id: String(user.id) },
    });
  });
});

describe('token middleware | last use, at most once a minute', () => {
  const rowOf = async (id: number) =>
    (
      await sql<{
        last_used_at: Date | null;
        xmin: string;
      }>`select last_used_at, xmin::text as xmin from api_tokens where id = ${id}`.execute(db)
    ).rows[0]!;

  it('writes the first use, then nothing for a minute (the row is not even rewritten), then the next use', async () => {
    const { plain, token } = await tokenOf();
    expect((await rowOf(token.id)).last_used_at).toBeNull();
    await call('/who', `Bearer ${plain}`);
    const first = await rowOf(token.id);
    expect(first.last_used_at!.getTime()).toBe(clock);
    const start = clock;
    for (const step of [1_000, 20_000, 38_999]) {
      clock += step;
      expect((await call('/who', `Bearer ${plain}`)).status).toBe(200);
      // Same tuple version: no UPDATE ran at all.
      expect(await rowOf(token.id)).toEqual(first);
    }
    clock = start + LAST_USED_INTERVAL_MS;
    await call('/who', `Bearer ${plain}`);
    const second = await rowOf(token.id);
    expect(second.last_used_at!.getTime()).toBe(clock);
    expect(second.xmin).not.toBe(first.xmin);
  });

  it('concurrent first uses write once', async () => {
    const { plain, token } = await tokenOf();
    const before = await rowOf(token.id);
    const results = await Promise.all(Array.from({ length: 8 }, () => apiTokens.touch({ ...token, lastUsedAt: null })));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect((await rowOf(token.id)).xmin).not.toBe(before.xmin);
    expect((await call('/who', `Bearer ${plain}`)).status).toBe(200);
  });
});

describe('ApiTokens | list and revoke all', () => {
  it("lists a user's tokens newest first, and revokes all of them", async () => {
    const user = await insertUser(db);
    const a = await apiTokens.create(String(user.id), { name: 'first' });
    const b = await apiTokens.create(String(user.id), { name: 'second', abilities: ['profile:read'] });
    const other = await tokenOf();
    expect((await apiTokens.list(String(user.id))).map((x) => x.name)).toEqual(['second', 'first']);
    expect(await apiTokens.revokeAll(String(user.id))).toBe(2);
    expect(await apiTokens.list(String(user.id))).toEqual([]);
    for (const p of [a.plain, b.plain]) expect((await call('/who', `Bearer ${p}`)).status).toBe(401);
    expect((await call('/who', `Bearer ${other.plain}`)).status).toBe(200);
  });
});

describe('token middleware | a guest behind another middleware with an outcome hook', () => {
  it("adds the challenge to a later 401 and still hands the outcome to the earlier middleware's hook", async () => {
    const seen: string[] = [];
    const headers = new Map<string, string>();
    const ctx = {
      route: route('plain', '/plain', ['session', 'token', 'require']),
      request: { headers: {} },
      auth: { signedIn: false },
      reply: { hasHeader: (n: string) => headers.has(n), header: (n: string, v: string) => headers.set(n, v) },
      outcomeHook: {
        onResult(_c: unknown, r: unknown) {
          seen.push('result');
          return r;
        },
        onError(_c: unknown, e: unknown) {
          seen.push('error');
          return e;
        },
      },
    };
    const middleware = createTokenMiddleware(apiTokens, () => t.running.services.auth as never);
    expect(middleware.before(ctx as never)).toBeUndefined();
    const refused = Object.assign(new Error('sign in'), { status: 401 });
    expect(ctx.outcomeHook.onError(ctx, refused)).toBe(refused);
    expect(headers.get('www-authenticate')).toBe('Bearer');
    headers.clear();
    ctx.outcomeHook.onError(ctx, Object.assign(new Error('no'), { status: 403 }));
    expect(headers.has('www-authenticate')).toBe(false);
    expect(ctx.outcomeHook.onResult(ctx, 'ok')).toBe('ok');
    expect(seen).toEqual(['error', 'error', 'result']);
  });
});
