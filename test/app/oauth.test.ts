/**
 * External-provider sign-in in the reference app (docs/spec.md 4.1
 * "/auth/{provider}/redirect" and "/callback") against a
 * local OpenID Connect provider started by the test (oauth2-mock-server):
 * the happy path, account linking by verified email, and the state, PKCE
 * and provider failures.
 */
import { OAuth2Server } from 'oauth2-mock-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TwoFactor } from '../../runtime/auth/two-factor/two-factor.js';
import type { RequestContext } from '../../runtime/http/context.js';
import { BROWSER, Client } from '../runtime/auth/support/client.js';
import { bootReferenceApp, clearCounters, makeAccount, pathOf, signIn, type ReferenceApp } from './tokens-support.js';

let provider: OAuth2Server;
let providerRunning = false;
let a: ReferenceApp;
/** What the provider's userinfo endpoint says next (sub stays the mock's `johndoe`). */
let profile: Record<string, unknown> = {};

beforeAll(async () => {
  provider = new OAuth2Server();
  await provider.issuer.keys.generate('RS256');
  await provider.start(0, '127.0.0.1');
  providerRunning = true;
  provider.service.on('beforeUserinfo', (response: { body: Record<string, unknown> }) => {
    response.body = { sub: 'johndoe', ...profile };
  });
  a = await bootReferenceApp('oauth_app', {
    AUTH_PROVIDERS: 'example',
    AUTH_EXAMPLE_ISSUER: provider.issuer.url!,
    AUTH_EXAMPLE_CLIENT_ID: 'bindery-test',
    AUTH_EXAMPLE_CLIENT_SECRET: 'test-secret',
  });
});
afterAll(async () => {
  await a?.close();
  if (providerRunning) await provider.stop();
});
beforeEach(async () => {
  await clearCounters(a);
  profile = {};
});

/** GET /auth/example/redirect: the provider's authorization URL it redirects to. */
async function begin(c: Client): Promise<URL> {
  const res = await c.send('GET', '/auth/example/redirect', { headers: { ...BROWSER } });
  expect(res.status).toBe(303);
  return new URL(res.location!);
}

/** The provider signs the user in at once and redirects back: the callback URL with code and state. */
async function authorize(url: URL): Promise<URL> {
  const res = await fetch(url, { redirect: 'manual' });
  expect(res.status).toBe(302);
  return new URL(res.headers.get('location')!);
}

const callback = (c: Client, url: URL | string) =>
  c.send('GET', typeof url === 'string' ? url : pathOf(url.href), { headers: { ...BROWSER } });
const userByEmail = (email: string) => a.t.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();

describe('GET /auth/{provider}/redirect', () => {
  it('redirects to the provider with the code flow, PKCE S256, state, nonce, the callback URL and the scopes', async () => {
    const url = await begin(new Client(a.url));
    expect(url.origin + url.pathname).toBe(`${provider.issuer.url}/authorize`);
    const q = url.searchParams;
    expect(q.get('response_type')).toBe('code');
    expect(q.get('client_id')).toBe('bindery-test');
    expect(q.get('redirect_uri')).toBe('http://127.0.0.1:3000/auth/example/callback');
    expect(q.get('scope')).toBe('openid email profile');
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.get('state')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(q.get('nonce')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
  });

  it('an unknown provider is 404', async () => {
    const res = await new Client(a.url).send('GET', '/auth/nope/redirect', { headers: { accept: 'application/json' } });
    expect(res.status).toBe(404);
    expect(res.json()).toMatchObject({ status: 404, detail: 'There is no sign-in provider named "nope".' });
  });

  it('a signed-in user is sent home (guest group)', async () => {
    const c = await signIn(a, await makeAccount(a));
    const res = await c.send('GET', '/auth/example/redirect', { headers: { ...BROWSER } });
    expect(res.status).toBe(303);
    expect(res.location).toBe('/dashboard');
  });
});

describe('GET /auth/{provider}/callback | signing in', () => {
  it('creates the account of an unknown verified address (verified, named by the provider) and signs it in', async () => {
    profile = { email: 'New.Person@Example.test', email_verified: true, name: 'New Person' };
    const c = new Client(a.url);
    const res = await callback(c, await authorize(await begin(c)));
    expect(res.status).toBe(303);
    expect(res.location).toBe('/dashboard');
    const user = await userByEmail('new.person@example.test');
    expect(user).toMatchObject({ name: 'New Person', admin: false });
    expect(user!.email_verified_at).not.toBeNull();
    const dash = await c.page('/dashboard');
    expect(dash.status).toBe(200);
    expect(dash.body).toContain('Signed in as <strong>New Person</strong>');
    expect(dash.body).toContain('Your account was created with Example.');
  });

  it("signs in the existing account of the address when that account's address is verified (no new account)", async () => {
    const user = await makeAccount(a, { email: 'linked@example.test', name: 'Linked', verified: true });
    profile = { email: 'LINKED@example.test', email_verified: true, name: 'Another Name' };
    const c = new Client(a.url);
    const res = await callback(c, await authorize(await begin(c)));
    expect(res.status).toBe(303);
    const dash = await c.page('/dashboard');
    expect(dash.body).toContain('Signed in as <strong>Linked</strong>');
    expect(dash.body).toContain('Signed in with Example.');
    expect(await a.t.db.selectFrom('users').select('id').where('email', '=', 'linked@example.test').execute()).toEqual([{ id: user.id }]);
  });

  it('refuses an existing account whose own address is not verified (409): whoever registered it may not own it', async () => {
    await makeAccount(a, { email: 'squatted@example.test', verified: false });
    profile = { email: 'squatted@example.test', email_verified: true };
    const c = new Client(a.url);
    const res = await c.send('GET', pathOf((await authorize(await begin(c))).href), { headers: { accept: 'application/json' } });
    expect(res.status).toBe(409);
    expect(res.json().detail).toContain('is not verified');
    expect((await c.send('GET', '/dashboard', { headers: { ...BROWSER } })).location).toBe('/login');
  });

  it('refuses a provider user without a verified email (403), creating nothing', async () => {
    for (const p of [{ email: 'unverified@example.test', email_verified: false }, { name: 'No Email' }]) {
      profile = p;
      const c = new Client(a.url);
      const res = await c.send('GET', pathOf((await authorize(await begin(c))).href), { headers: { accept: 'application/json' } });
      expect(res.status).toBe(403);
      expect(res.json().detail).toContain('did not give a verified email address');
    }
    expect(await userByEmail('unverified@example.test')).toBeUndefined();
  });
});

describe('GET /auth/{provider}/callback | two-factor authentication', () => {
  it('an account with confirmed two-factor is not signed in by the provider alone: the challenge, then its code signs it in', async () => {
    const user = await makeAccount(a, { email: 'guarded@example.test', name: 'Guarded', verified: true });
    const twoFactor = a.t.running.services.twoFactor as TwoFactor;
    const noSession = { session: { put() {}, pull: () => undefined } } as unknown as RequestContext;
    await twoFactor.enable(noSession, user);
    await twoFactor.confirm(noSession, user, (await twoFactor.nextCode(String(user.id)))!);

    profile = { email: 'guarded@example.test', email_verified: true };
    const c = new Client(a.url);
    const res = await callback(c, await authorize(await begin(c)));
    expect(res.status).toBe(303);
    expect(res.location).toBe('/two-factor-challenge');
    const dash = await c.send('GET', '/dashboard', { headers: { ...BROWSER } });
    expect(dash.status).toBe(303);
    expect(dash.location).toBe('/login');

    const form = await c.page('/two-factor-challenge');
    expect(form.status).toBe(200);
    const wrong = await c.form('/two-factor-challenge', { code: '000000' });
    expect(wrong.location).toBe('/two-factor-challenge');
    const right = await c.form('/two-factor-challenge', { code: (await twoFactor.nextCode(String(user.id)))! });
    expect(right.status).toBe(303);
    expect(right.location).toBe('/dashboard');
    const signedIn = await c.page('/dashboard');
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toContain('Signed in as <strong>Guarded</strong>');
  });

  it('a JSON client is told to send the code (two_factor: true), as after a password', async () => {
    const user = await makeAccount(a, { email: 'guarded.json@example.test', verified: true });
    const twoFactor = a.t.running.services.twoFactor as TwoFactor;
    const noSession = { session: { put() {} } } as unknown as RequestContext;
    await twoFactor.enable(noSession, user);
    await twoFactor.confirm(noSession, user, (await twoFactor.nextCode(String(user.id)))!);
    profile = { email: 'guarded.json@example.test', email_verified: true };
    const c = new Client(a.url);
    const url = await authorize(await begin(c));
    const res = await c.send('GET', pathOf(url.href), { headers: { accept: 'application/json' } });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ two_factor: true });
    const me = await c.send('GET', '/dashboard', { headers: { accept: 'application/json' } });
    expect(me.status).toBe(401);
  });
});

describe('GET /auth/{provider}/callback | the profile is input', () => {
  it('an email over 254 characters, with U+0000 or not name@domain is 422 problem details, never a database error; nothing is created', async () => {
    const long = `${'a'.repeat(250)}@example.test`;
    for (const email of [long, 'nul\u0000@example.test', 'no-at-sign.example.test', '@example.test', 'lone\uD800@example.test']) {
      profile = { email, email_verified: true, name: 'Hostile' };
      const c = new Client(a.url);
      const res = await c.send('GET', pathOf((await authorize(await begin(c))).href), { headers: { accept: 'application/json' } });
      expect(res.status, JSON.stringify(email)).toBe(422);
      expect(res.json().detail).toContain('cannot be used for an account');
      expect((await c.send('GET', '/dashboard', { headers: { ...BROWSER } })).location).toBe('/login');
    }
    const count = await a.t.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('name', '=', 'Hostile')
      .executeTakeFirst();
    expect(Number(count!.n)).toBe(0);
  });

  it('a display name with control characters or over 255 characters is cleaned, and the account is created', async () => {
    profile = { email: 'named@example.test', email_verified: true, name: `Bad\u0000Name${'x'.repeat(400)}` };
    const c = new Client(a.url);
    const res = await callback(c, await authorize(await begin(c)));
    expect(res.status).toBe(303);
    const user = await userByEmail('named@example.test');
    expect(user!.name).toBe(`BadName${'x'.repeat(248)}`);
  });
});

describe('GET /auth/{provider}/callback | state and PKCE', () => {
  it("a state that is not this browser's is 400, and the started sign-in is used up", async () => {
    profile = { email: 'state@example.test', email_verified: true };
    const c = new Client(a.url);
    const back = await authorize(await begin(c));
    const forged = new URL(back);
    forged.searchParams.set('state', 'forged-state-value');
    const res = await c.send('GET', pathOf(forged.href), { headers: { accept: 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.json().detail).toContain('state mismatch');
    // The genuine answer comes too late: the pending sign-in was used once.
    expect((await callback(c, back)).status).toBe(400);
    expect(await userByEmail('state@example.test')).toBeUndefined();
  });

  it('a callback in a browser that started no sign-in is 400', async () => {
    profile = { email: 'nostart@example.test', email_verified: true };
    const starter = new Client(a.url);
    const back = await authorize(await begin(starter));
    const res = await new Client(a.url).send('GET', pathOf(back.href), { headers: { accept: 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.json().detail).toContain('No sign-in with Example was started in this browser');
  });

  it("a code issued for another browser's PKCE challenge is refused by the provider: 400, nobody signed in", async () => {
    profile = { email: 'pkce@example.test', email_verified: true };
    const victim = new Client(a.url);
    const victimBack = await authorize(await begin(victim));
    const attacker = new Client(a.url);
    const attackerStart = await begin(attacker);
    // The attacker's own state (so the state check passes) with the victim's code: only PKCE can tell.
    const mixed = new URL(victimBack);
    mixed.searchParams.set('state', attackerStart.searchParams.get('state')!);
    const res = await attacker.send('GET', pathOf(mixed.href), { headers: { accept: 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.json().detail).toBe(
      'Example refused to complete the sign-in (invalid_request: code_verifier provided does not match code_challenge). Start again from the login page.',
    );
    expect((await attacker.send('GET', '/dashboard', { headers: { ...BROWSER } })).location).toBe('/login');
    expect(await userByEmail('pkce@example.test')).toBeUndefined();
  });

  it("the provider's error answer (the user cancelled) is 400", async () => {
    const c = new Client(a.url);
    const start = await begin(c);
    const res = await c.send('GET', `/auth/example/callback?error=access_denied&state=${start.searchParams.get('state')}`, {
      headers: { accept: 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.json().detail).toContain('access_denied');
  });

  it('a provider that stops answering is 502', async () => {
    profile = { email: 'down@example.test', email_verified: true };
    const c = new Client(a.url);
    const back = await authorize(await begin(c));
    // Last test of the file: the provider stays down.
    await provider.stop();
    providerRunning = false;
    const res = await c.send('GET', pathOf(back.href), { headers: { accept: 'application/json' } });
    expect(res.status).toBe(502);
    expect(res.json().detail).toContain('did not answer the sign-in as expected');
    expect(await userByEmail('down@example.test')).toBeUndefined();
  });
});
