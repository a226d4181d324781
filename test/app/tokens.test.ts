/**
 * API tokens in the reference app (SPEC.md 2.2, 4.1 POST /tokens, POST
 * /tokens/{id}/delete, GET /api/me, 5.5): the dashboard
 * creates, shows once, lists and revokes tokens; API clients call /api/me
 * with them. Real HTTP, real PostgreSQL, the real auth layer.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Client } from '../runtime/auth/support/client.js';
import { bootReferenceApp, clearCounters, makeAccount, signIn, type ReferenceApp } from './tokens-support.js';

let a: ReferenceApp;

beforeAll(async () => {
  a = await bootReferenceApp('tokens_app');
});
afterAll(async () => {
  await a?.close();
});
beforeEach(async () => {
  await clearCounters(a);
});

async function me(token: string | undefined, headers: Record<string, string> = {}) {
  const res = await fetch(`${a.url}/api/me`, { headers: { accept: 'application/json', ...(token === undefined ? {} : { authorization: `Bearer ${token}` }), ...headers } });
  return { status: res.status, challenge: res.headers.get('www-authenticate'), body: await res.json() };
}

/** Create a token on the dashboard; the plain token it shows. */
async function createOnDashboard(c: Client, name: string): Promise<string> {
  await c.page('/dashboard');
  const res = await c.form('/tokens', { name });
  expect(res.status).toBe(303);
  expect(res.location).toBe('/dashboard');
  const dash = await c.page('/dashboard');
  const m = /<code id="new-token">([^<]+)<\/code>/.exec(dash.body);
  expect(m, 'the new token on the dashboard').not.toBeNull();
  return m![1]!; // <id>|<secret>: nothing in it is escaped in HTML
}

describe('POST /tokens | the dashboard creates a token and shows it once', () => {
  it('creates a token with ability profile:read for 90 days, flashes it once (not after a reload) and lists it', async () => {
    const user = await makeAccount(a);
    const c = await signIn(a, user);
    await c.page('/dashboard');
    const before = Date.now();
    const res = await c.form('/tokens', { name: 'My <CLI>' });
    expect(res.status).toBe(303);
    expect(res.location).toBe('/dashboard');

    const first = await c.page('/dashboard');
    const plain = /<code id="new-token">([^<]+)<\/code>/.exec(first.body)?.[1];
    expect(plain).toMatch(/^\d+\|[A-Za-z0-9_-]{40}$/);
    expect(first.body).toContain('My &lt;CLI&gt;');
    expect(first.body).toContain('profile:read');
    const again = await c.page('/dashboard');
    expect(again.body).not.toContain(plain!);
    expect(again.body).not.toContain('id="new-token"');
    expect(again.body).toContain('My &lt;CLI&gt;');

    const row = await a.t.db.selectFrom('api_tokens' as any).selectAll().where('user_id', '=', String(user.id)).executeTakeFirstOrThrow() as any;
    expect(row).toMatchObject({ name: 'My <CLI>', abilities: ['profile:read'] });
    expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(plain!.split('|')[1]);
    const lifetime = new Date(row.expires_at).getTime() - before;
    expect(lifetime).toBeGreaterThanOrEqual(90 * 86_400_000 - 5_000);
    expect(lifetime).toBeLessThanOrEqual(90 * 86_400_000 + 5_000);
  });

  it('a name is required and at most 100 characters: 422 for JSON, back to the dashboard with the error for a browser', async () => {
    const c = await signIn(a, await makeAccount(a));
    await c.page('/dashboard');
    const json = await c.json('POST', '/tokens', { name: 'x'.repeat(101) });
    expect(json.status).toBe(422);
    expect(Object.keys(json.json().errors)).toEqual(['name']);
    const form = await c.form('/tokens', { name: '' }, { referer: '/dashboard' });
    expect(form.status).toBe(303);
    expect(form.location).toBe('/dashboard');
    expect((await c.page('/dashboard')).body).toMatch(/id="name-error"/);
  });

  it('a guest is sent to the login page; a form without the CSRF token is 403', async () => {
    const guest = new Client(a.url);
    await guest.page('/login');
    const res = await guest.form('/tokens', { name: 'x' });
    expect(res.status).toBe(303);
    expect(res.location).toBe('/login');
    const c = await signIn(a, await makeAccount(a));
    expect((await c.form('/tokens', { name: 'x' }, { token: 'wrong' })).status).toBe(403);
  });
});

describe('GET /api/me | API group: token, then require', () => {
  it('answers the token owner\'s id, name, email, email_verified_at and admin', async () => {
    const user = await makeAccount(a, { name: 'Grace', verified: true });
    const plain = await createOnDashboard(await signIn(a, user), 'api');
    const res = await me(plain);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: user.id, name: 'Grace', email: user.email, email_verified_at: user.email_verified_at!.toISOString(), admin: false });
  });

  it('no token: 401 with WWW-Authenticate: Bearer — a session cookie does not count (no session middleware)', async () => {
    const c = await signIn(a, await makeAccount(a));
    const cookie = [...c.cookies].map(([n, v]) => `${n}=${v}`).join('; ');
    expect(await me(undefined)).toMatchObject({ status: 401, challenge: 'Bearer' });
    expect(await me(undefined, { cookie })).toMatchObject({ status: 401, challenge: 'Bearer' });
    expect(await me(undefined, { authorization: 'Basic dTpw' })).toMatchObject({ status: 401, challenge: 'Bearer' });
  });

  it('a malformed, unknown or revoked token: 401 invalid_token', async () => {
    expect(await me('nonsense')).toMatchObject({ status: 401, challenge: 'Bearer error="invalid_token"' });
    expect(await me(`999999|${'a'.repeat(40)}`)).toMatchObject({ status: 401, challenge: 'Bearer error="invalid_token"', body: { status: 401, title: 'Unauthorized' } });
  });

  it('a token without profile:read: 403', async () => {
    const user = await makeAccount(a);
    const { plain } = await a.apiTokens.create(String(user.id), { name: 'docs only', abilities: ['documents:read'] });
    const res = await me(plain);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ status: 403, title: 'Forbidden' });
  });

  it('a token whose owner is deleted: 401 invalid_token', async () => {
    const user = await makeAccount(a);
    const { plain } = await a.apiTokens.create(String(user.id), { name: 'x', abilities: ['profile:read'] });
    expect((await me(plain)).status).toBe(200);
    await a.t.db.deleteFrom('users').where('id', '=', user.id).execute();
    expect(await me(plain)).toMatchObject({ status: 401, challenge: 'Bearer error="invalid_token"' });
  });
});

describe('POST /tokens/{id}/delete | revoking', () => {
  it('revokes one of your tokens; another user\'s token ID answers the same and changes nothing', async () => {
    const mine = await makeAccount(a);
    const theirs = await makeAccount(a);
    const c = await signIn(a, mine);
    const plain = await createOnDashboard(c, 'to revoke');
    const other = await a.apiTokens.create(String(theirs.id), { name: 'not yours', abilities: ['profile:read'] });

    await c.page('/dashboard');
    const foreign = await c.form(`/tokens/${other.token.id}/delete`, {});
    const unknown = await c.form('/tokens/987654/delete', {});
    for (const res of [foreign, unknown]) {
      expect(res.status).toBe(303);
      expect(res.location).toBe('/dashboard');
    }
    expect((await me(other.plain)).status).toBe(200);
    expect((await a.apiTokens.list(String(theirs.id))).map((x) => x.id)).toEqual([other.token.id]);

    const id = plain.split('|')[0];
    const dash = await c.page('/dashboard');
    expect(dash.body).toContain(`data-token-id="${id}"`);
    const own = await c.form(`/tokens/${id}/delete`, {});
    expect(own.status).toBe(303);
    expect(own.location).toBe('/dashboard');
    const after = await c.page('/dashboard');
    expect(after.body).toContain('Token revoked.');
    expect(after.body).not.toContain(`data-token-id="${id}"`);
    expect(await me(plain)).toMatchObject({ status: 401, challenge: 'Bearer error="invalid_token"' });
  });
});
