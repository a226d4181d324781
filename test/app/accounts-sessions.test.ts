/**
 * The Session and Remember-me rows of docs/spec.md 3 with the reference app
 * (5.1 rules 6–7 and 9, 5.2): login gives a new session ID, logout empties
 * it and replaces the remember token, a password change ends other sessions
 * on their next request, remember-me signs the user into a new session,
 * bcrypt hashes are upgraded at login. Real HTTP, real PostgreSQL.
 */
import bcrypt from 'bcryptjs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { decodeAppKey, generateAppKey } from '../../runtime/config/app-key.js';
import { Encrypter } from '../../runtime/crypto/encrypter.js';
import { KeyRing } from '../../runtime/crypto/key-ring.js';
import { parseRecord, type SessionRecord } from '../../runtime/session/session-record.js';
import { Client } from '../runtime/auth/support/client.js';
import { bootAccounts, clearCache, makeUser, type AccountsApp } from './accounts-support.js';

const KEY = generateAppKey();
const encrypter = new Encrypter(new KeyRing((decodeAppKey(KEY) as { key: Buffer }).key));
const PASSWORD = 'correct horse battery';
let a: AccountsApp;

beforeAll(async () => {
  a = await bootAccounts('accountsessions', { APP_KEY: KEY });
});
afterAll(async () => {
  await a?.close();
});
beforeEach(async () => {
  await clearCache(a);
});

function sessionOf(c: Client): SessionRecord | null {
  const value = c.cookies.get('app_session');
  if (value === undefined) return null;
  const opened = encrypter.open('session', value, { context: 'app_session' });
  return opened === null ? null : parseRecord(opened.plaintext.toString('utf8'));
}

function rememberOf(c: Client): { id: string; token: string } | null {
  const value = c.cookies.get('app_remember');
  if (value === undefined) return null;
  const r = encrypter.openJson<{ id: string; token: string }>('remember', value, { context: 'app_remember' });
  return r.ok ? r.value : null;
}

async function login(c: Client, email: string, fields: Record<string, string> = {}) {
  await c.page('/login');
  const res = await c.form('/login', { email, password: PASSWORD, ...fields });
  expect(res.status, res.body).toBe(303);
  return res;
}

/** The same browser after its session cookie is gone (expired, or the browser restarted). */
function withoutSession(c: Client): Client {
  const copy = c.clone();
  copy.cookies.delete('app_session');
  return copy;
}

describe('Session | none → active when a value is first stored', () => {
  it('a guest request that stores nothing gets no cookie; the login page stores the CSRF token and writes one', async () => {
    const c = new Client(a.url);
    const home = await c.send('GET', '/');
    expect(home.cookies).toEqual([]);
    await c.page('/login');
    expect(sessionOf(c)).toMatchObject({ userId: null });
  });
});

describe('Session | login gives the session a new ID', () => {
  it("keeps nothing of the guest session's ID or CSRF token; the user ID and a fingerprint (not the hash) are stored", async () => {
    const user = await makeUser(a, { password: PASSWORD });
    const c = new Client(a.url);
    await c.page('/login');
    const guest = sessionOf(c)!;
    const oldToken = c.token!;
    await c.form('/login', { email: user.email, password: PASSWORD });
    const signed = sessionOf(c)!;
    expect(signed.id).not.toBe(guest.id);
    expect(signed.csrf).not.toBe(guest.csrf);
    expect(signed.userId).toBe(String(user.id));
    expect(signed.fingerprint).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(c.cookies.get('app_session')).not.toContain(user.password);
    expect(JSON.stringify(signed)).not.toContain(user.password);
    // The guest page's token no longer works (Regenerate replaces the CSRF token).
    const stale = await c.form('/logout', {}, { token: oldToken });
    expect(stale.status).toBe(403);
  });
});

describe('Session | logout empties it', () => {
  it('the session after logout has no user and a new ID; the copy made before still works with cookie sessions (docs/spec.md 5.1 rule 7)', async () => {
    const user = await makeUser(a, { password: PASSWORD });
    const c = new Client(a.url);
    await login(c, user.email);
    await c.page('/dashboard');
    const before = sessionOf(c)!;
    const copy = c.clone();
    await c.form('/logout', {});
    const after = sessionOf(c)!;
    expect(after.userId).toBeNull();
    expect(after.id).not.toBe(before.id);
    expect((await c.page('/dashboard')).status).toBe(303);
    expect((await copy.page('/dashboard')).status).toBe(200);
  });
});

describe('Session | password changed: other sessions end when next used', () => {
  it("a changed hash ends the other browser's session on its next request (page → login, cookies removed); the fingerprint no longer matches", async () => {
    const user = await makeUser(a, { password: PASSWORD });
    const first = new Client(a.url);
    const second = new Client(a.url);
    await login(first, user.email);
    await login(second, user.email, { remember: 'on' });
    expect((await second.page('/dashboard')).status).toBe(200);
    const newHash = await a.auth.hashPassword('a brand new password');
    await a.db.updateTable('users').set({ password: newHash }).where('id', '=', user.id).execute();
    const res = await second.page('/dashboard');
    expect(res.status).toBe(303);
    expect(res.location).toBe('/login');
    expect(res.cookies.find((c) => c.name === 'app_remember')?.attributes['max-age']).toBe('0');
    expect(sessionOf(second)?.userId ?? null).toBeNull();
    expect(rememberOf(second)).toBeNull();
    expect((await first.page('/dashboard')).status).toBe(303);
    // Signing in again with the new password works, with the new fingerprint.
    await first.page('/login');
    expect((await first.form('/login', { email: user.email, password: 'a brand new password' })).status).toBe(303);
    expect((await first.page('/dashboard')).status).toBe(200);
  });

  it("the session keeps the service's fingerprint of the stored hash (an HMAC, not the hash)", async () => {
    const user = await makeUser(a, { password: PASSWORD });
    const c = new Client(a.url);
    await login(c, user.email);
    const fp = sessionOf(c)!.fingerprint;
    expect(fp).toBe(a.auth.fingerprint(user.password));
  });
});

describe('Remember-me | login with remember sets the cookie', () => {
  it('app_remember holds the user ID and the remember token, encrypted, Max-Age = AUTH_REMEMBER_LIFETIME, HttpOnly, SameSite=Lax', async () => {
    const user = await makeUser(a, { password: PASSWORD });
    const c = new Client(a.url);
    const res = await login(c, user.email, { remember: 'on' });
    const cookie = res.cookies.find((x) => x.name === 'app_remember')!;
    expect(cookie.attributes).toMatchObject({ 'max-age': String(720 * 3600), path: '/', httponly: '', samesite: 'Lax' });
    expect(cookie.attributes.secure).toBeUndefined();
    const row = await a.db.selectFrom('users').select('remember_token').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.remember_token).toMatch(/^[A-Za-z0-9_-]{40}$/);
    expect(rememberOf(c)).toEqual({ id: String(user.id), token: row.remember_token });
    expect(cookie.value).not.toContain(row.remember_token!);
  });

  it('two remembered browsers share the token (the second login reuses it)', async () => {
    const user = await makeUser(a, { password: PASSWORD });
    const one = new Client(a.url);
    const two = new Client(a.url);
    await login(one, user.email, { remember: 'on' });
    await login(two, user.email, { remember: 'on' });
    expect(rememberOf(one)!.token).toBe(rememberOf(two)!.token);
  });

  it('a remembered browser whose session ended is signed in by the cookie on the login page and sent to the dashboard', async () => {
    const user = await makeUser(a, { password: PASSWORD });
    const c = new Client(a.url);
    await login(c, user.email, { remember: 'on' });
    const later = withoutSession(c);
    const res = await later.page('/login');
    expect(res.status).toBe(303);
    expect(res.location).toBe('/dashboard');
    expect(sessionOf(later)!.userId).toBe(String(user.id));
  });
});

describe('Remember-me | active: signs the user into a new session when theirs has ended', () => {
  it('without the session cookie, the remember cookie signs in (new session with the user), the page answers 200', async () => {
    const user = await makeUser(a, { password: PASSWORD });
    const c = new Client(a.url);
    await login(c, user.email, { remember: 'on' });
    const old = sessionOf(c)!;
    const later = withoutSession(c);
    const res = await later.page('/dashboard');
    expect(res.status).toBe(200);
    const fresh = sessionOf(later)!;
    expect(fresh.userId).toBe(String(user.id));
    expect(fresh.id).not.toBe(old.id);
    expect(fresh.fingerprint).toBe(old.fingerprint);
    // The next request uses the new session; the remember cookie is not rewritten.
    const next = await later.page('/dashboard');
    expect(next.status).toBe(200);
    expect(next.cookies.find((x) => x.name === 'app_remember')).toBeUndefined();
  });

  it('a session cookie that does not decrypt is an ended session: remember-me signs in again', async () => {
    const user = await makeUser(a, { password: PASSWORD });
    const c = new Client(a.url);
    await login(c, user.email, { remember: 'on' });
    c.cookies.set('app_session', c.cookies.get('app_session')!.slice(0, -4) + 'AAAA');
    expect((await c.page('/dashboard')).status).toBe(200);
    expect(sessionOf(c)!.userId).toBe(String(user.id));
  });

  it('a garbage remember cookie is removed and the request stays a guest', async () => {
    const c = new Client(a.url);
    c.cookies.set('app_remember', 'garbage-value');
    const res = await c.page('/dashboard');
    expect(res.status).toBe(303);
    expect(res.location).toBe('/login');
    expect(res.cookies.find((x) => x.name === 'app_remember')?.attributes['max-age']).toBe('0');
    expect(c.cookies.has('app_remember')).toBe(false);
  });

  it('a remember cookie made for another purpose or naming an unknown user is removed too', async () => {
    const forged = new Client(a.url);
    forged.cookies.set('app_remember', encrypter.sealJson('session', { id: '1', token: 'x' }, { context: 'app_remember' }));
    expect((await forged.page('/dashboard')).cookies.find((x) => x.name === 'app_remember')?.attributes['max-age']).toBe('0');
    const nobody = new Client(a.url);
    nobody.cookies.set(
      'app_remember',
      encrypter.sealJson('remember', { id: '987654', token: 'x'.repeat(40) }, { context: 'app_remember', expiresAt: Date.now() + 60_000 }),
    );
    const res = await nobody.page('/dashboard');
    expect(res.status).toBe(303);
    expect(res.cookies.find((x) => x.name === 'app_remember')?.attributes['max-age']).toBe('0');
  });
});

describe('Remember-me | logout: the token is replaced, every remembered browser is signed out', () => {
  it('after logout in one browser, another remembered browser cannot sign in with its cookie (removed)', async () => {
    const user = await makeUser(a, { password: PASSWORD });
    const laptop = new Client(a.url);
    const phone = new Client(a.url);
    await login(laptop, user.email, { remember: 'on' });
    await login(phone, user.email, { remember: 'on' });
    const before = (await a.db.selectFrom('users').select('remember_token').where('id', '=', user.id).executeTakeFirstOrThrow())
      .remember_token;
    await laptop.page('/dashboard');
    const out = await laptop.form('/logout', {});
    expect(out.status).toBe(303);
    expect(out.cookies.find((x) => x.name === 'app_remember')?.attributes['max-age']).toBe('0');
    const after = (await a.db.selectFrom('users').select('remember_token').where('id', '=', user.id).executeTakeFirstOrThrow())
      .remember_token;
    expect(after).toMatch(/^[A-Za-z0-9_-]{40}$/);
    expect(after).not.toBe(before);
    const phoneLater = withoutSession(phone);
    const res = await phoneLater.page('/dashboard');
    expect(res.status).toBe(303);
    expect(res.cookies.find((x) => x.name === 'app_remember')?.attributes['max-age']).toBe('0');
  });
});

describe('Passwords | bcrypt legacy login upgrades the hash and signs out other sessions', () => {
  it('a $2y$ hash verifies, is replaced by argon2id after the login, and a session made with the old hash ends on its next request', async () => {
    const legacy = bcrypt.hashSync(PASSWORD, 4).replace(/^\$2b\$/, '$2y$');
    const user = await makeUser(a, { hash: legacy });
    // A browser remembered while the bcrypt hash was stored (its session carries the bcrypt fingerprint).
    await a.db
      .updateTable('users')
      .set({ remember_token: 'r'.repeat(40) })
      .where('id', '=', user.id)
      .execute();
    const other = new Client(a.url);
    other.cookies.set(
      'app_remember',
      encrypter.sealJson(
        'remember',
        { id: String(user.id), token: 'r'.repeat(40) },
        { context: 'app_remember', expiresAt: Date.now() + 60_000 },
      ),
    );
    expect((await other.page('/dashboard')).status).toBe(200);
    expect(sessionOf(other)!.fingerprint).toBe(a.auth.fingerprint(legacy));

    const c = new Client(a.url);
    await login(c, user.email);
    const row = await a.db.selectFrom('users').select('password').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.password).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await a.auth.verifyPassword(row.password, PASSWORD)).toBe(true);
    expect(sessionOf(c)!.fingerprint).toBe(a.auth.fingerprint(row.password));
    expect((await c.page('/dashboard')).status).toBe(200);

    const res = await other.page('/dashboard');
    expect(res.status).toBe(303);
    expect(res.location).toBe('/login');
    // The next login checks the argon2id hash and changes nothing.
    const again = new Client(a.url);
    await login(again, user.email);
    expect((await a.db.selectFrom('users').select('password').where('id', '=', user.id).executeTakeFirstOrThrow()).password).toBe(
      row.password,
    );
  });

  it('a weaker argon2id hash is upgraded; a wrong password upgrades nothing', async () => {
    const argon2 = (await import('argon2')).default;
    const weak = await argon2.hash(PASSWORD, { type: argon2.argon2id, memoryCost: 8192, timeCost: 1, parallelism: 1 });
    const user = await makeUser(a, { hash: weak });
    const c = new Client(a.url);
    await c.page('/login');
    expect((await c.form('/login', { email: user.email, password: 'wrong' })).status).toBe(303);
    expect((await a.db.selectFrom('users').select('password').where('id', '=', user.id).executeTakeFirstOrThrow()).password).toBe(weak);
    await login(c, user.email);
    expect((await a.db.selectFrom('users').select('password').where('id', '=', user.id).executeTakeFirstOrThrow()).password).toMatch(
      /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/,
    );
  });
});

describe('Remember-me | a request signed in by the remember cookie alone needs the CSRF token', () => {
  it('JSON POST /tokens and POST /logout with app_remember, no session cookie and no token are refused (403); nothing is created, the user stays remembered', async () => {
    const user = await makeUser(a, { password: PASSWORD });
    const c = new Client(a.url);
    await login(c, user.email, { remember: 'on' });
    const remembered = withoutSession(c);
    remembered.token = undefined;
    const create = await remembered.json('POST', '/tokens', { name: 'stolen' });
    expect(create.status, create.body).toBe(403);
    const tokens = await a.db
      .selectFrom('api_tokens' as any)
      .select('id')
      .where('user_id' as any, '=', String(user.id))
      .execute();
    expect(tokens).toEqual([]);
    const fresh = withoutSession(c);
    fresh.token = undefined;
    const out = await fresh.json('POST', '/logout', {});
    expect(out.status, out.body).toBe(403);
    // The remember token was not replaced: the browser is still signed in by its cookie.
    const page = await withoutSession(c).page('/dashboard');
    expect(page.status).toBe(200);
  });

  it('with the token of a page it loaded (the remember cookie signed it in there), the same JSON POST /tokens passes', async () => {
    const user = await makeUser(a, { password: PASSWORD });
    const c = new Client(a.url);
    await login(c, user.email, { remember: 'on' });
    const later = withoutSession(c);
    expect((await later.page('/dashboard')).status).toBe(200);
    const create = await later.json('POST', '/tokens', { name: 'mine' }, { accept: 'text/html' });
    expect(create.status, create.body).toBe(303);
  });
});
