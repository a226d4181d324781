/**
 * API tokens in the reference app (docs/spec.md 2.2, 4.1 POST /tokens, POST
 * /tokens/{id}/delete, GET /api/me, 5.5): the dashboard
 * creates, shows once, lists and revokes tokens; API clients call /api/me
 * with them. Real HTTP, real PostgreSQL, the real auth layer, through the
 * test kit (docs/testing.md) on its clock.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testClock, type TestCaller } from 'bindery/testing';
import type { ApiTokens } from 'bindery/auth/tokens';
import type { Handlers } from '../../generated/handlers.js';
import type { TokensCreateInput, User } from '../../generated/types.js';
import { policies } from '../../generated/policies.js';
import { routes } from '../../generated/routes.js';
import { TOKEN_ABILITIES, tokenAbilitiesOf } from '../../app/handlers/tokens.js';
import { bootReferenceKit, clearCache, makeUser, type ReferenceKit } from './kit-support.js';

const clock = testClock();
let t: ReferenceKit;
let apiTokens: ApiTokens;

beforeAll(async () => {
  t = await bootReferenceKit('tokens_app', { clock });
  apiTokens = t.app.running.services['apiTokens'] as ApiTokens;
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await clearCache(t);
});

const signIn = (user: User) => t.signIn('accounts.login', { email: user.email, password: 'correct horse battery' });

async function me(token: string | undefined, headers: Record<string, string> = {}) {
  const res = await t.request(
    'api.me',
    {},
    { headers: { ...(token === undefined ? {} : { authorization: `Bearer ${token}` }), ...headers } },
  );
  return { status: res.status, challenge: res.headers.get('www-authenticate'), body: res.body };
}

/** Create a token on the dashboard (the boxes of `abilities` ticked, else the form's default); the plain token it shows. */
async function createOnDashboard(c: TestCaller<Handlers>, name: string, abilities?: TokensCreateInput['abilities']): Promise<string> {
  await c.page('/dashboard');
  const res = await c.request('tokens.create', { name, ...(abilities === undefined ? {} : { abilities }) }, { form: true });
  expect(res.status).toBe(303);
  expect(res.location).toBe('/dashboard');
  const dash = await c.page('/dashboard');
  const m = /<code id="new-token">([^<]+)<\/code>/.exec(dash.text);
  expect(m, 'the new token on the dashboard').not.toBeNull();
  return m![1]!; // <id>|<secret>: nothing in it is escaped in HTML
}

describe('POST /tokens | the dashboard creates a token and shows it once', () => {
  it('creates a token with ability profile:read for 90 days, flashes it once (not after a reload) and lists it', async () => {
    const user = await makeUser(t);
    const c = await signIn(user);
    await c.page('/dashboard');
    const res = await c.request('tokens.create', { name: 'My <CLI>' }, { form: true });
    expect(res.status).toBe(303);
    expect(res.location).toBe('/dashboard');

    const first = await c.page('/dashboard');
    const plain = /<code id="new-token">([^<]+)<\/code>/.exec(first.text)?.[1];
    expect(plain).toMatch(/^\d+\|[A-Za-z0-9_-]{40}$/);
    expect(first.text).toContain('My &lt;CLI&gt;');
    expect(first.text).toContain('profile:read');
    const again = await c.page('/dashboard');
    expect(again.text).not.toContain(plain!);
    expect(again.text).not.toContain('id="new-token"');
    expect(again.text).toContain('My &lt;CLI&gt;');

    const row = (await t.db
      .selectFrom('api_tokens' as any)
      .selectAll()
      .where('user_id', '=', String(user.id))
      .executeTakeFirstOrThrow()) as any;
    expect(row).toMatchObject({ name: 'My <CLI>', abilities: ['profile:read'] });
    expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(plain!.split('|')[1]);
    // The app runs on the kit's clock: the expiry is exactly 90 days after its now.
    expect(new Date(row.expires_at).getTime() - clock.now()).toBe(90 * 86_400_000);
  });

  it('a name is required and at most 100 characters: 422 for JSON, back to the dashboard with the error for a browser', async () => {
    const c = await signIn(await makeUser(t));
    await c.page('/dashboard');
    const json = await c.request('tokens.create', { name: 'x'.repeat(101) });
    expect(json.status).toBe(422);
    expect(Object.keys((json.body as { errors: object }).errors)).toEqual(['name']);
    const form = await c.request('tokens.create', { name: '' }, { form: true }); // Referer: the dashboard, the last page read
    expect(form.status).toBe(303);
    expect(form.location).toBe('/dashboard');
    expect((await c.page('/dashboard')).text).toMatch(/id="name-error"/);
  });

  it('a guest is sent to the login page; a form without the CSRF token is 403', async () => {
    const guest = t.browser();
    await guest.page('/login');
    const res = await guest.request('tokens.create', { name: 'x' }, { form: true });
    expect(res.status).toBe(303);
    expect(res.location).toBe('/login');
    const c = await signIn(await makeUser(t));
    c.csrfToken = 'wrong';
    expect((await c.request('tokens.create', { name: 'x' }, { form: true })).status).toBe(403);
  });
});

/** The abilities rows of the user's tokens, newest first. */
async function abilitiesOf(user: User): Promise<string[][]> {
  return (await apiTokens.list(String(user.id))).map((token) => [...token.abilities]);
}

/** The ability checkboxes of the dashboard's form: value → ticked. */
function checkboxes(html: string): Record<string, boolean> {
  const boxes: Record<string, boolean> = {};
  for (const m of html.matchAll(/<input type="checkbox" name="abilities" value="([^"]+)"( checked)?>/g)) boxes[m[1]!] = m[2] !== undefined;
  return boxes;
}

describe('POST /tokens | abilities chosen on the dashboard', () => {
  it('offers the abilities the token routes and their policies ask for: profile:read for /api/me, documents:read and documents:write', () => {
    expect(TOKEN_ABILITIES).toEqual(['documents:read', 'documents:write', 'profile:read']);
    // POST /tokens accepts exactly these (the enum of schema/tokens.yaml), and without any chosen gives profile:read.
    const field = routes.find((r) => r.name === 'tokens.create')!.fields.find((f) => f.key === 'abilities')!;
    const each = field.rules.find((r) => r.name === 'each');
    expect(each?.inner).toEqual({ name: 'enum', params: tokenAbilitiesOf(routes, policies) });
    expect(field.default).toEqual(['profile:read']);
  });

  it('shows a checkbox per ability, profile:read ticked, and lists each token with its abilities', async () => {
    const user = await makeUser(t);
    const c = await signIn(user);
    expect(checkboxes((await c.page('/dashboard')).text)).toEqual({
      'documents:read': false,
      'documents:write': false,
      'profile:read': true,
    });
    await createOnDashboard(c, 'writer', ['documents:read', 'documents:write']);
    await createOnDashboard(c, 'reader'); // the form as it comes: profile:read
    const dash = (await c.page('/dashboard')).text;
    expect(dash).toMatch(/<td>writer<\/td>\s*<td>documents:read, documents:write<\/td>/);
    expect(dash).toMatch(/<td>reader<\/td>\s*<td>profile:read<\/td>/);
    expect(await abilitiesOf(user)).toEqual([['profile:read'], ['documents:read', 'documents:write']]);
  });

  it('a token with documents:read and documents:write calls the documents API (the README "Try it"), and not /api/me', async () => {
    const user = await makeUser(t);
    const plain = await createOnDashboard(await signIn(user), 'api', ['documents:read', 'documents:write']);
    const bearer = { authorization: `Bearer ${plain}` };
    const created = await fetch(`${t.url}/api/documents`, {
      method: 'POST',
      headers: { ...bearer, 'content-type': 'application/json' },
      body: JSON.stringify({ slug: 'plan', title: 'Plan', body: '…' }),
    });
    expect(created.status).toBe(201);
    const doc = (await created.json()) as { id: number };
    expect(created.headers.get('location')).toBe(`/api/documents/${doc.id}`);
    const history = await fetch(`${t.url}/api/documents/${doc.id}/history`, { headers: bearer });
    expect(history.status).toBe(200);
    expect(await me(plain)).toMatchObject({ status: 403, challenge: 'Bearer error="insufficient_scope", scope="profile:read"' });
  });

  it('JSON: a list of abilities; an unknown ability or an empty list is 422 on abilities, and no token is made', async () => {
    const user = await makeUser(t);
    const c = await signIn(user);
    await c.page('/dashboard');
    expect((await c.request('tokens.create', { name: 'json', abilities: ['documents:read'] })).status).toBe(303);
    expect((await c.request('tokens.create', { name: 'none sent' })).status).toBe(303);
    for (const abilities of [['documents:read', 'admin:everything'], [], ['*']]) {
      const res = await c.request('tokens.create', { name: 'bad', abilities: abilities as never });
      expect(res.status, JSON.stringify(abilities)).toBe(422);
      expect(Object.keys((res.body as { errors: object }).errors)).toEqual(['abilities']);
    }
    expect(await abilitiesOf(user)).toEqual([['profile:read'], ['documents:read']]);
  });

  it('a form with an unknown ability goes back to the dashboard with the error and the boxes as they were sent', async () => {
    const user = await makeUser(t);
    const c = await signIn(user);
    await c.page('/dashboard');
    const res = await c.request('tokens.create', { name: 'x', abilities: ['documents:write', 'root'] as never }, { form: true });
    expect(res.status).toBe(303);
    expect(res.location).toBe('/dashboard');
    const dash = (await c.page('/dashboard')).text;
    expect(dash).toMatch(/id="abilities-error"/);
    expect(checkboxes(dash)).toEqual({ 'documents:read': false, 'documents:write': true, 'profile:read': false });
    expect(await abilitiesOf(user)).toEqual([]);
  });
});

describe('GET /api/me | API group: token, then require', () => {
  it("answers the token owner's id, name, email, email_verified_at, admin and avatar_url (null without a picture)", async () => {
    const user = await makeUser(t, { name: 'Grace', verified: true });
    const plain = await createOnDashboard(await signIn(user), 'api');
    const res = await me(plain);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: user.id,
      name: 'Grace',
      email: user.email,
      email_verified_at: user.email_verified_at!.toISOString(),
      admin: false,
      avatar_url: null,
    });
  });

  it('writes only the members of its declared shape: the handler returns the whole row, the hash and timestamps never reach the client', async () => {
    const user = await makeUser(t, { name: 'Ada' });
    const res = await me(await createOnDashboard(await signIn(user), 'api'));
    expect(res.status).toBe(200);
    expect(Object.keys(res.body as object)).toEqual(['id', 'name', 'email', 'email_verified_at', 'admin', 'avatar_url']);
    expect(JSON.stringify(res.body)).not.toMatch(/password|remember_token|created_at|argon2/);
  });

  it('no token: 401 with WWW-Authenticate: Bearer — a session cookie does not count (no session middleware)', async () => {
    const c = await signIn(await makeUser(t));
    const cookie = [...c.cookies!].map(([n, v]) => `${n}=${v}`).join('; ');
    expect(await me(undefined)).toMatchObject({ status: 401, challenge: 'Bearer' });
    expect(await me(undefined, { cookie })).toMatchObject({ status: 401, challenge: 'Bearer' });
    expect(await me(undefined, { authorization: 'Basic dTpw' })).toMatchObject({ status: 401, challenge: 'Bearer' });
  });

  it('a malformed, unknown or revoked token: 401 invalid_token', async () => {
    expect(await me('nonsense')).toMatchObject({ status: 401, challenge: 'Bearer error="invalid_token"' });
    expect(await me(`999999|${'a'.repeat(40)}`)).toMatchObject({
      status: 401,
      challenge: 'Bearer error="invalid_token"',
      body: { status: 401, title: 'Unauthorized' },
    });
  });

  it('a token without profile:read: 403', async () => {
    const user = await makeUser(t);
    const holder = await t.withToken(user.id, ['documents:read']);
    const res = await me(holder.token);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ status: 403, title: 'Forbidden' });
  });

  it('a token whose owner is deleted: 401 invalid_token', async () => {
    const user = await makeUser(t);
    const holder = await t.withToken(user.id, ['profile:read']);
    expect((await holder.request('api.me')).status).toBe(200);
    await t.db.deleteFrom('users').where('id', '=', user.id).execute();
    expect(await me(holder.token)).toMatchObject({ status: 401, challenge: 'Bearer error="invalid_token"' });
  });
});

describe('API clients with a bearer token get problem details without asking (plain curl: no Accept)', () => {
  /** A request as `curl -H "Authorization: Bearer …"` sends it: `Accept: *\/*`, no other client hint. */
  async function curl(path: string, token: string, init: { method?: string; form?: string } = {}) {
    const res = await fetch(`${t.url}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        accept: '*/*',
        authorization: `Bearer ${token}`,
        ...(init.form === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
      },
      ...(init.form === undefined ? {} : { body: init.form }),
    });
    const text = await res.text();
    return { status: res.status, type: res.headers.get('content-type'), body: text.startsWith('{') ? JSON.parse(text) : text };
  }

  it('401, 403, 404 and 422 from the documents API are application/problem+json', async () => {
    const user = await makeUser(t);
    const reader = await t.withToken(user.id, ['profile:read']);
    const writer = await t.withToken(user.id, ['documents:read', 'documents:write']);
    const problem = 'application/problem+json; charset=utf-8';

    expect(await curl('/api/documents/1/history', `999999|${'a'.repeat(40)}`)).toMatchObject({ status: 401, type: problem });
    expect(await curl('/api/documents', reader.token, { method: 'POST', form: 'slug=plan&title=Plan' })).toMatchObject({
      status: 403,
      type: problem,
      body: { status: 403, detail: expect.stringContaining('lacks the ability documents:write') },
    });
    expect(await curl('/api/documents/987654/history', writer.token)).toMatchObject({ status: 404, type: problem, body: { status: 404 } });
    const invalid = await curl('/api/documents', writer.token, { method: 'POST', form: 'slug=plan' });
    expect(invalid).toMatchObject({ status: 422, type: problem });
    expect(Object.keys(invalid.body.errors)).toEqual(['title']);
    expect(await curl('/api/nowhere', writer.token)).toMatchObject({ status: 404, type: problem });
  });
});

describe('POST /tokens/{id}/delete | revoking', () => {
  it("revokes one of your tokens; another user's token, like an unknown one, is 404 and changes nothing", async () => {
    const mine = await makeUser(t);
    const theirs = await makeUser(t);
    const c = await signIn(mine);
    const plain = await createOnDashboard(c, 'to revoke');
    const other = await apiTokens.create(String(theirs.id), { name: 'not yours', abilities: ['profile:read'] });

    await c.page('/dashboard');
    const foreign = await c.request('tokens.delete', { id: other.token.id }, { form: true });
    const unknown = await c.request('tokens.delete', { id: 987654 }, { form: true });
    for (const res of [foreign, unknown]) expect(res.status).toBe(404);
    expect((await me(other.plain)).status).toBe(200);
    expect((await apiTokens.list(String(theirs.id))).map((x) => x.id)).toEqual([other.token.id]);

    const id = plain.split('|')[0]!;
    const dash = await c.page('/dashboard');
    expect(dash.text).toContain(`data-token-id="${id}"`);
    const own = await c.request('tokens.delete', { id: Number(id) }, { form: true });
    expect(own.status).toBe(303);
    expect(own.location).toBe('/dashboard');
    const after = await c.page('/dashboard');
    expect(after.text).toContain('Token revoked.');
    expect(after.text).not.toContain(`data-token-id="${id}"`);
    expect(await me(plain)).toMatchObject({ status: 401, challenge: 'Bearer error="invalid_token"' });
  });
});
