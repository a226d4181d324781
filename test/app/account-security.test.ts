/**
 * Profile, credentials, sessions and passkeys over HTTP with the reference
 * app on database sessions (docs/auth.md "Profile and credentials",
 * "Sessions and devices", "Passkeys"): session listing and revocation
 * across two browsers, a password change ending the other sessions, an
 * email change before and after its link (a fresh password confirmation
 * first, only the latest link), passkeys with the kit's software
 * authenticator and their refusals (user verification required unless the
 * app opts out). Real HTTP, real PostgreSQL.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defineApp } from 'bindery/app';
import { passkeys } from 'bindery/auth/passkeys';
import { bootTestKit, type TestCaller } from 'bindery/testing';
import app from '../../app/main.js';
import type { Handlers } from '../../generated/handlers.js';
import { routes } from '../../generated/routes.js';
import type { Database, User } from '../../generated/types.js';
import { testServerUrl } from '../support/database.js';
import { referenceAppEnv } from '../support/reference-app-env.js';
import { bootReferenceKit, clearCache, makeUser, type ReferenceKit } from './kit-support.js';

const PASSWORD = 'correct horse battery';
let t: ReferenceKit;

beforeAll(async () => {
  t = await bootReferenceKit('accountsecurity', { env: { SESSION_DRIVER: 'database' } });
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await clearCache(t);
});

type Sessions = { id: string; current: boolean; user_agent: string | null; ip_address: string | null; created_at: string }[];

const signIn = (user: User, agent: string): Promise<TestCaller<Handlers>> => signInAs(user.email, PASSWORD, agent);

async function signInAs(email: string, password: string, agent: string): Promise<TestCaller<Handlers>> {
  const browser = t.browser();
  const headers = { 'user-agent': agent };
  await browser.page('/login', { headers });
  const res = await browser.request('accounts.login', { email, password }, { form: true, headers });
  expect(res.location).toBe('/dashboard');
  await browser.page('/dashboard', { headers });
  return browser;
}

/** Whether the browser is still signed in (JSON: 401 when not). */
async function signedIn(browser: TestCaller<Handlers>): Promise<boolean> {
  const res = await browser.send('GET', '/user/sessions', { headers: { accept: 'application/json' } });
  if (res.status === 401) return false;
  expect(res.status).toBe(200);
  return true;
}

describe('Sessions and devices | two browsers', () => {
  it('lists both sessions with their user agent and address; one revokes the other, which is signed out', async () => {
    const user = await makeUser(t, { password: PASSWORD });
    const laptop = await signIn(user, 'Laptop/1.0');
    const phone = await signIn(user, 'Phone/2.0');
    const list = (await laptop.request('sessions.index')).body as Sessions;
    expect(list).toHaveLength(2);
    expect(list.map((s) => s.user_agent).sort()).toEqual(['Laptop/1.0', 'Phone/2.0']);
    expect(list.find((s) => s.current)?.user_agent).toBe('Laptop/1.0');
    expect(list.every((s) => s.ip_address === '127.0.0.1' && !Number.isNaN(Date.parse(s.created_at)))).toBe(true);
    const other = list.find((s) => !s.current)!;
    const stranger = await signIn(await makeUser(t, { password: PASSWORD }), 'Other/1');
    expect((await stranger.request('sessions.destroy', { id: other.id })).status).toBe(404);
    expect((await laptop.request('sessions.destroy', { id: other.id })).status).toBe(204);
    expect(await signedIn(phone)).toBe(false);
    expect(await signedIn(laptop)).toBe(true);
    expect(((await laptop.request('sessions.index')).body as Sessions).map((s) => s.user_agent)).toEqual(['Laptop/1.0']);
  });

  it('"sign out every other browser" needs the password and keeps this one', async () => {
    const user = await makeUser(t, { password: PASSWORD });
    const a = await signIn(user, 'A');
    const b = await signIn(user, 'B');
    const c = await signIn(user, 'C');
    const wrong = await a.request('sessions.others', { password: 'nope nope nope' });
    expect(wrong.status).toBe(422);
    expect((wrong.body as { errors: Record<string, string> }).errors).toEqual({ password: 'The provided password was incorrect.' });
    expect((await a.request('sessions.others', { password: PASSWORD })).status).toBe(204);
    expect([await signedIn(a), await signedIn(b), await signedIn(c)]).toEqual([true, false, false]);
  });
});

describe('Profile | password change', () => {
  it('needs the current password; ends the other sessions and the API tokens; this browser stays signed in', async () => {
    const user = await makeUser(t, { password: PASSWORD });
    const a = await signIn(user, 'A');
    const b = await signIn(user, 'B');
    const api = await t.withToken(user.id, ['profile:read']);
    expect((await api.request('api.me')).status).toBe(200);
    const wrong = await a.request('profile.password', {
      current_password: 'wrong one',
      password: 'a brand new one',
      password_confirmation: 'a brand new one',
    });
    expect(wrong.status).toBe(422);
    expect(Object.keys((wrong.body as unknown as { errors: object }).errors)).toEqual(['current_password']);
    const ok = await a.request('profile.password', {
      current_password: PASSWORD,
      password: 'a brand new one',
      password_confirmation: 'a brand new one',
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toBe('');
    expect(await signedIn(a)).toBe(true);
    expect(await signedIn(b)).toBe(false);
    expect((await api.request('api.me')).status).toBe(401);
    await signInAs(user.email, 'a brand new one', 'C');
    const entries = (
      await sql<{
        action: string;
        actor_id: string | null;
        properties: unknown;
      }>`SELECT action, properties FROM audit_log WHERE subject_id = ${String(user.id)}`.execute(t.db)
    ).rows;
    expect(entries.map((e) => e.action)).toContain('auth.password_changed');
    expect(JSON.stringify(entries)).not.toContain('a brand new one');
  });
});

describe('Profile | email change', () => {
  it('the new address gets a link, the old one a notice; login keeps the old address until the link is followed', async () => {
    const user = await makeUser(t, { password: PASSWORD, verified: true });
    const browser = await signIn(user, 'A');
    const next = `moved-${user.id}@example.test`;
    expect((await browser.request('confirm.store', { password: PASSWORD })).status).toBe(201);
    const res = await browser.request('profile.update', { name: 'New Name', email: next.toUpperCase() });
    expect(res.status).toBe(200);
    const row = await t.db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    expect({ name: row.name, email: row.email }).toEqual({ name: 'New Name', email: user.email });
    const [link] = await t.outbox(next);
    const [notice] = await t.outbox(user.email);
    expect(link?.subject).toMatch(/Confirm your new email address/);
    expect(notice?.subject).toMatch(/about to change/);
    expect(notice?.text).toContain(next);
    await signInAs(user.email, PASSWORD, 'old address still works');
    const url = new URL(link!.links[0]!);
    expect(url.pathname).toBe('/user/confirm-email');
    const follow = await t.browser().send('GET', `${url.pathname}${url.search}`, { headers: { accept: 'text/html' } });
    expect(follow.status).toBe(303);
    const after = await t.db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(after.email).toBe(next);
    expect(after.email_verified_at).not.toBeNull();
    await signInAs(next, PASSWORD, 'new address');
    const old = t.browser();
    await old.page('/login');
    expect((await old.request('accounts.login', { email: user.email, password: PASSWORD })).status).toBe(422);
    const tampered = await t.browser().send('GET', `/user/confirm-email?token=${url.searchParams.get('token')!.slice(0, -3)}abc`, {
      headers: { accept: 'application/json' },
    });
    expect(tampered.status).toBe(400);
  });

  it('an address in use is 422 on email', async () => {
    const taken = await makeUser(t, { password: PASSWORD });
    const user = await makeUser(t, { password: PASSWORD });
    const browser = await signIn(user, 'A');
    expect((await browser.request('confirm.store', { password: PASSWORD })).status).toBe(201);
    const res = await browser.request('profile.update', { name: user.name, email: taken.email });
    expect(res.status).toBe(422);
    expect((res.body as unknown as { errors: Record<string, string> }).errors).toEqual({ email: 'The email has already been taken.' });
    expect(await t.outbox(taken.email)).toEqual([]);
  });
});

describe('Profile | email change needs the password, and only its latest link works', () => {
  /** Follow the link of a change mail from a fresh browser (JSON). */
  const follow = (link: string) => {
    const url = new URL(link);
    return t.browser().send('GET', `${url.pathname}${url.search}`, { headers: { accept: 'application/json' } });
  };
  const emailOf = async (id: number) =>
    (await t.db.selectFrom('users').select('email').where('id', '=', id).executeTakeFirstOrThrow()).email;

  it('a new address needs a fresh password confirmation: JSON 423, a form is sent to the confirm form; the name alone changes without', async () => {
    const user = await makeUser(t, { password: PASSWORD });
    const browser = await signIn(user, 'A');
    const next = `sudo-${user.id}@example.test`;
    const json = await browser.request('profile.update', { name: user.name, email: next });
    expect(json.status).toBe(423);
    expect((json.body as unknown as { detail: string }).detail).toMatch(/^Password confirmation required/);
    await browser.page('/user/profile');
    const form = await browser.request('profile.update', { name: user.name, email: next }, { form: true });
    expect(form.status).toBe(303);
    expect(form.location).toBe('/user/confirm-password');
    expect(await t.outbox(next)).toEqual([]);
    expect((await browser.request('profile.update', { name: 'Only The Name', email: user.email })).status).toBe(200);
    const row = await t.db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    expect({ name: row.name, email: row.email }).toEqual({ name: 'Only The Name', email: user.email });
    await browser.page('/user/confirm-password');
    const back = await browser.request('confirm.store', { password: PASSWORD }, { form: true });
    expect(back.location).toBe('/user/profile');
    expect((await browser.request('profile.update', { name: user.name, email: next })).status).toBe(200);
    expect(await t.outbox(next)).toHaveLength(1);
  });

  it('only the link of the latest change asked for works; a password change ends it too', async () => {
    const user = await makeUser(t, { password: PASSWORD });
    const browser = await signIn(user, 'A');
    expect((await browser.request('confirm.store', { password: PASSWORD })).status).toBe(201);
    const first = `first-${user.id}@example.test`;
    const second = `second-${user.id}@example.test`;
    expect((await browser.request('profile.update', { name: user.name, email: first })).status).toBe(200);
    expect((await browser.request('profile.update', { name: user.name, email: second })).status).toBe(200);
    const [firstMail] = await t.outbox(first);
    const [secondMail] = await t.outbox(second);
    expect((await follow(firstMail!.links[0]!)).status).toBe(400);
    expect(await emailOf(user.id)).toBe(user.email);

    // A password change after the request ends the latest link as well.
    const changed = await browser.request('profile.password', {
      current_password: PASSWORD,
      password: 'a brand new one',
      password_confirmation: 'a brand new one',
    });
    expect(changed.status).toBe(200);
    expect((await follow(secondMail!.links[0]!)).status).toBe(400);
    expect(await emailOf(user.id)).toBe(user.email);

    // A change asked for now works once.
    const third = `third-${user.id}@example.test`;
    expect((await browser.request('profile.update', { name: user.name, email: third })).status).toBe(200);
    const [thirdMail] = await t.outbox(third);
    expect((await follow(thirdMail!.links[0]!)).status).toBe(303);
    expect(await emailOf(user.id)).toBe(third);
  });
});

describe("Passkeys | with the kit's software authenticator", () => {
  it('registers two passkeys, signs in with one (usernameless), removes one', async () => {
    const user = await makeUser(t, { password: PASSWORD });
    const browser = await signIn(user, 'A');
    const first = t.passkey();
    const second = t.passkey();
    expect((await browser.request('passkeys.options', {})).status).toBe(423); // sudo mode first
    await t.registerPasskey(browser, first, { name: 'Laptop', password: PASSWORD });
    await t.registerPasskey(browser, second, { name: 'Phone' });
    const list = (await browser.request('passkeys.index')).body as { id: string; name: string }[];
    expect(list.map((p) => p.name)).toEqual(['Laptop', 'Phone']);
    const signed = await t.signInWithPasskey(second);
    const me = (await signed.request('sessions.index')).body as Sessions;
    expect(me.some((s) => s.current)).toBe(true);
    expect((await browser.request('passkeys.destroy', { id: first.id! })).status).toBe(204);
    expect(((await browser.request('passkeys.index')).body as unknown[]).length).toBe(1);
    await expect(t.signInWithPasskey(first)).rejects.toThrow(/not registered here/);
  });

  it('refuses an assertion for another origin, a replayed challenge and a counter going backwards, without signing in', async () => {
    const user = await makeUser(t, { password: PASSWORD });
    const browser = await signIn(user, 'A');
    const key = t.passkey();
    await t.registerPasskey(browser, key, { password: PASSWORD });
    const guest = t.browser();
    await guest.page('/login');
    const refusedWith = async (credential: Record<string, unknown>) => {
      const res = await guest.request('passkeys.login', { credential: credential as never });
      expect(res.status).toBe(422);
      expect(await signedIn(guest)).toBe(false);
      return (res.body as unknown as { errors: Record<string, string> }).errors.credential;
    };
    const offer = async () => (await guest.request('passkeys.loginOptions', {})).body as { challenge: string };
    expect(await refusedWith(key.get(await offer(), { origin: 'https://evil.example' }))).toMatch(/origin/i);
    const good = key.get(await offer());
    expect((await guest.request('passkeys.login', { credential: good as never })).status).toBe(200);
    const again = t.browser();
    await again.page('/login');
    expect((await again.request('passkeys.login', { credential: good as never })).status).toBe(422); // no challenge in this session
    await again.request('passkeys.loginOptions', {});
    expect((await again.request('passkeys.login', { credential: good as never })).status).toBe(422); // another challenge
    const other = t.browser();
    await other.page('/login');
    const backwards = key.get((await other.request('passkeys.loginOptions', {})).body as { challenge: string }, { counter: 1 });
    const res = await other.request('passkeys.login', { credential: backwards as never });
    expect(res.status).toBe(422);
    expect((res.body as unknown as { errors: Record<string, string> }).errors.credential).toMatch(/counter/i);
  });
});

describe('Passkeys | user verification', () => {
  it('asks the browser for user verification and refuses an assertion with the user only present (no PIN or biometric)', async () => {
    const user = await makeUser(t, { password: PASSWORD });
    const browser = await signIn(user, 'A');
    const key = t.passkey();
    await t.registerPasskey(browser, key, { password: PASSWORD });
    const guest = t.browser();
    await guest.page('/login');
    const offer = (await guest.request('passkeys.loginOptions', {})).body as { challenge: string; userVerification?: string };
    expect(offer.userVerification).toBe('required');
    const res = await guest.request('passkeys.login', { credential: key.get(offer, { userVerified: false }) as never });
    expect(res.status).toBe(422);
    expect((res.body as unknown as { errors: Record<string, string> }).errors.credential).toMatch(/verif/i);
    expect(await signedIn(guest)).toBe(false);
    const entries = (
      await sql<{
        action: string;
      }>`SELECT action FROM audit_log WHERE subject_id = ${String(user.id)} AND action LIKE 'auth.passkey_%'`.execute(t.db)
    ).rows.map((e) => e.action);
    expect(entries).toContain('auth.passkey_failed');
    expect(entries).not.toContain('auth.passkey_login');
    // The same passkey with user verification signs in.
    const signed = await t.signInWithPasskey(key);
    expect(await signedIn(signed)).toBe(true);
  });
});

describe('Passkeys | passkeys({ requireUserVerification: false })', () => {
  let lax: ReferenceKit;
  beforeAll(async () => {
    const optedOut = defineApp({
      ...app,
      setup: (app.setup ?? []).map((step) => (step.name === 'passkeys' ? passkeys({ requireUserVerification: false }) : step)),
    });
    lax = await bootTestKit<Handlers, Database>(optedOut, {
      routes,
      serverUrl: testServerUrl(),
      prefix: 'passkeyslax',
      env: referenceAppEnv,
    });
  });
  afterAll(async () => {
    await lax?.close();
  });

  it('only prefers user verification and signs in a user who is present', async () => {
    const user = await makeUser(lax, { password: PASSWORD });
    const browser = await lax.signIn({ email: user.email, password: PASSWORD });
    const key = lax.passkey();
    await lax.registerPasskey(browser, key, { password: PASSWORD });
    const guest = lax.browser();
    await guest.page('/login');
    const offer = (await guest.request('passkeys.loginOptions', {})).body as { challenge: string; userVerification?: string };
    expect(offer.userVerification).toBe('preferred');
    expect((await guest.request('passkeys.login', { credential: key.get(offer, { userVerified: false }) as never })).status).toBe(200);
  });
});

describe('Profile | email change with AUTH_HIDE_ACCOUNTS=true', () => {
  let hidden: ReferenceKit;
  beforeAll(async () => {
    hidden = await bootReferenceKit('hideaccounts', { env: { AUTH_HIDE_ACCOUNTS: 'true' } });
  });
  afterAll(async () => {
    await hidden?.close();
  });

  it('answers an address in use like a free one; following its link is 422 on email', async () => {
    const taken = await makeUser(hidden, { password: PASSWORD });
    const user = await makeUser(hidden, { password: PASSWORD });
    const browser = await hidden.signIn({ email: user.email, password: PASSWORD });
    expect((await browser.request('confirm.store', { password: PASSWORD })).status).toBe(201);
    const free = await browser.request('profile.update', { name: user.name, email: `free-${user.id}@example.test` });
    const inUse = await browser.request('profile.update', { name: user.name, email: taken.email });
    expect([free.status, inUse.status]).toEqual([200, 200]);
    expect(inUse.text).toBe(free.text);
    const [link] = await hidden.outbox(taken.email);
    const url = new URL(link!.links[0]!);
    const follow = await hidden.browser().send('GET', `${url.pathname}${url.search}`, { headers: { accept: 'application/json' } });
    expect(follow.status).toBe(422);
    expect((follow.body as { errors: Record<string, string> }).errors).toEqual({ email: 'The email has already been taken.' });
    const row = await hidden.db.selectFrom('users').select('email').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.email).toBe(user.email);
  });
});
