/**
 * The account pages of the auth core end to end (docs/spec.md 4.1, 5.1, 7 rules
 * 6–7; docs/auth.md): real HTTP, real PostgreSQL, the reference app, through
 * the test kit (docs/testing.md).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bootReferenceKit, clearCache, makeUser, type ReferenceKit } from './kit-support.js';

const PASSWORD = 'correct horse battery';
let t: ReferenceKit;

beforeAll(async () => {
  t = await bootReferenceKit('accounts');
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await clearCache(t);
});

/** A browser signed in as a new user (through the login form). */
async function signedIn(fields: Parameters<typeof makeUser>[1] = {}) {
  const user = await makeUser(t, { password: PASSWORD, ...fields });
  const c = await t.signIn('accounts.login', { email: user.email, password: PASSWORD });
  return { c, user };
}

describe('GET / | pages group', () => {
  it('answers 303 to /dashboard', async () => {
    const res = await t.browser().request('accounts.home');
    expect(res.status).toBe(303);
    expect(res.location).toBe('/dashboard');
  });
});

describe('POST /register | creates the user and signs them in', () => {
  it('creates the user with a lower-cased email and an argon2id hash, signs in, 303 to /dashboard', async () => {
    const c = t.browser();
    const form = await c.page('/register');
    expect(form.status).toBe(200);
    expect(form.text).toContain('name="password_confirmation"');
    const res = await c.request(
      'accounts.register',
      { name: 'Ada', email: 'Ada.Lovelace@Example.TEST', password: 'analytical-engine', password_confirmation: 'analytical-engine' },
      { form: true },
    );
    expect(res.status).toBe(303);
    expect(res.location).toBe('/dashboard');
    const row = await t.db.selectFrom('users').selectAll().where('email', '=', 'ada.lovelace@example.test').executeTakeFirstOrThrow();
    expect(row.name).toBe('Ada');
    expect(row.password).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(row.admin).toBe(false);
    expect(row.email_verified_at).toBeNull();
    const dash = await c.page('/dashboard');
    expect(dash.status).toBe(200);
    expect(dash.text).toContain('Signed in as <strong>Ada</strong>');
    expect(dash.text).toContain('Welcome! We sent you a link to verify your email address.');
    // The verification link went out (the outbox in testing), to the lower-cased address.
    const mine = await t.outbox('ada.lovelace@example.test');
    expect(mine).toHaveLength(1);
    expect(mine[0]!.text).toMatch(/\/verify-email\?token=/);
  });

  it('answers 422 on email when the address is taken, whatever its case (JSON)', async () => {
    const user = await makeUser(t, { email: 'taken@example.test' });
    const c = t.browser();
    await c.page('/register');
    const res = await c.request('accounts.register', {
      name: 'X',
      email: 'TAKEN@example.test',
      password: 'long enough',
      password_confirmation: 'long enough',
    });
    expect(res.status).toBe(422);
    expect((res.body as { errors: unknown }).errors).toEqual({ email: 'The email has already been taken.' });
    expect(await t.db.selectFrom('users').select('id').where('email', '=', 'taken@example.test').execute()).toEqual([{ id: user.id }]);
  });

  it('a browser form with a taken email goes back to the form with the error and the name typed, never the password', async () => {
    await makeUser(t, { email: 'taken2@example.test' });
    const c = t.browser();
    await c.page('/register');
    const res = await c.request(
      'accounts.register',
      { name: 'Eve <b>', email: 'taken2@example.test', password: 'long enough', password_confirmation: 'long enough' },
      { form: true },
    );
    expect(res.status).toBe(303);
    expect(res.location).toBe('/register');
    const back = await c.page('/register');
    expect(back.text).toContain('The email has already been taken.');
    expect(back.text).toContain('value="Eve &lt;b&gt;"');
    expect(back.text).not.toContain('long enough');
  });

  it('refuses a short password and an unconfirmed one (422 on password)', async () => {
    const c = t.browser();
    await c.page('/register');
    const short = await c.request('accounts.register', {
      name: 'X',
      email: 'short@example.test',
      password: 'short',
      password_confirmation: 'short',
    });
    expect(short.status).toBe(422);
    expect(Object.keys((short.body as { errors: object }).errors)).toEqual(['password']);
    const unconfirmed = await c.request('accounts.register', {
      name: 'X',
      email: 'short@example.test',
      password: 'long enough',
      password_confirmation: 'different',
    });
    expect(unconfirmed.status).toBe(422);
    expect(Object.keys((unconfirmed.body as { errors: object }).errors)).toEqual(['password']);
    expect(await t.db.selectFrom('users').select('id').where('email', '=', 'short@example.test').execute()).toEqual([]);
  });
});

describe('POST /login | guest group', () => {
  it('signs in with the right password: 303 to /dashboard, a new session', async () => {
    const user = await makeUser(t, { password: PASSWORD });
    const c = t.browser();
    await c.page('/login');
    const before = c.cookies!.get('app_session');
    const res = await c.request('accounts.login', { email: user.email, password: PASSWORD }, { form: true });
    expect(res.status).toBe(303);
    expect(res.location).toBe('/dashboard');
    expect(c.cookies!.get('app_session')).not.toBe(before);
    expect((await c.page('/dashboard')).status).toBe(200);
  });

  it('a wrong password is 422 on email (JSON) and a browser goes back to /login with the error and the email typed', async () => {
    const user = await makeUser(t);
    const c = t.browser();
    await c.page('/login');
    const json = await c.request('accounts.login', { email: user.email, password: 'wrong' });
    expect(json.status).toBe(422);
    expect((json.body as { errors: unknown }).errors).toEqual({ email: 'These credentials do not match our records.' });
    const res = await c.request('accounts.login', { email: user.email, password: 'wrong' }, { form: true });
    expect(res.status).toBe(303);
    expect(res.location).toBe('/login');
    const back = await c.page('/login');
    expect(back.text).toContain('These credentials do not match our records.');
    expect(back.text).toContain(`value="${user.email}"`);
  });

  it('a signed-in user is sent from /login and /register to /dashboard (guest guard)', async () => {
    const { c } = await signedIn();
    for (const path of ['/login', '/register']) {
      const res = await c.send('GET', path);
      expect(res.status).toBe(303);
      expect(res.location).toBe('/dashboard');
    }
  });
});

describe('member group | the require guard', () => {
  it('sends a guest asking for a page to /login and back to that page after login', async () => {
    const user = await makeUser(t, { password: PASSWORD });
    const c = t.browser();
    const res = await c.page(`/users/${user.id}?tab=profile`);
    expect(res.status).toBe(303);
    expect(res.location).toBe('/login');
    await c.page('/login');
    const login = await c.request('accounts.login', { email: user.email, password: PASSWORD }, { form: true });
    expect(login.status).toBe(303);
    expect(login.location).toBe(`/users/${user.id}?tab=profile`);
    // Only once: the next login goes home.
    await c.page('/dashboard');
    expect((await c.request('accounts.logout', {}, { form: true })).status).toBe(303);
    await c.page('/login');
    expect((await c.request('accounts.login', { email: user.email, password: PASSWORD }, { form: true })).location).toBe('/dashboard');
  });

  it('a page route redirects a client without Accept too (curl), JSON and htmx get 401', async () => {
    const c = t.browser();
    const curl = await c.send('GET', '/dashboard', { headers: { accept: '*/*' } });
    expect(curl.status).toBe(303);
    expect(curl.location).toBe('/login');
    const json = await c.send('GET', '/dashboard', { headers: { accept: 'application/json' } });
    expect(json.status).toBe(401);
    expect(json.body).toMatchObject({ status: 401, title: 'Unauthorized' });
    const htmx = await c.send('GET', '/dashboard', { headers: { accept: 'text/html', 'hx-request': 'true' } });
    expect(htmx.status).toBe(401);
    const boosted = await c.send('GET', '/dashboard', { headers: { accept: 'text/html', 'hx-request': 'true', 'hx-boosted': 'true' } });
    expect(boosted.status).toBe(303);
    const apiJson = await c.send('GET', '/users/1', { headers: { accept: '*/*' } });
    expect(apiJson.status).toBe(401);
  });
});

describe('POST /logout | member group', () => {
  it('empties the session and answers 303 to /login with a status message', async () => {
    const { c } = await signedIn();
    await c.page('/dashboard');
    const res = await c.request('accounts.logout', {}, { form: true });
    expect(res.status).toBe(303);
    expect(res.location).toBe('/login');
    const login = await c.page('/login');
    expect(login.status).toBe(200);
    expect(login.text).toContain('You have been logged out.');
    expect((await c.page('/dashboard')).status).toBe(303);
  });

  it('a guest posting to /logout is sent to log in', async () => {
    const c = t.browser();
    await c.page('/login');
    const res = await c.request('accounts.logout', {}, { form: true });
    expect(res.status).toBe(303);
    expect(res.location).toBe('/login');
  });
});

describe('GET /dashboard, /users/{id}, /admin | pages and access', () => {
  it('the dashboard greets the user, HTML-escaped, with a logout form carrying the CSRF token', async () => {
    const { c } = await signedIn({ name: '<script>alert(1)</script>' });
    const res = await c.page('/dashboard');
    expect(res.status).toBe(200);
    expect(res.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(res.text).not.toContain('<script>alert(1)');
    expect(res.text).toMatch(/<form method="post" action="\/logout"[^>]*>\s*<input type="hidden" name="_token"/);
  });

  it("your own user page is 200 (page and JSON without hidden fields); another user's is 404, like an unknown one (the policy users hides existence)", async () => {
    const { c, user } = await signedIn();
    const other = await makeUser(t);
    const own = await c.page(`/users/${user.id}`);
    expect(own.status).toBe(200);
    expect(own.text).toContain(user.email);
    const json = await c.request('users.show', { id: user.id });
    expect(json.status).toBe(200);
    expect(Object.keys(json.body as object).sort()).toEqual([
      'admin',
      'avatar',
      'created_at',
      'email',
      'email_verified_at',
      'id',
      'locale',
      'name',
      'updated_at',
    ]);
    expect((json.body as { avatar: unknown }).avatar).toBeNull();
    const hidden = await c.request('users.show', { id: other.id });
    const missing = await c.request('users.show', { id: 999999 });
    expect(hidden.status).toBe(404);
    expect(missing.status).toBe(404);
    // The same answer for both: nothing tells which user IDs exist.
    expect((hidden.body as unknown as { detail: string }).detail).toBe(`User ${other.id} does not exist.`);
    expect((missing.body as unknown as { detail: string }).detail).toBe('User 999999 does not exist.');
    expect((await c.page(`/users/${other.id}`)).status).toBe(404);
  });

  it("an admin sees anyone's page (404 for nobody) and the admin page listing users HTML-escaped; others get 403", async () => {
    const { c: member } = await signedIn();
    const refused = await member.page('/admin');
    expect(refused.status).toBe(403);
    expect((await member.page('/dashboard')).text).not.toContain('href="/admin"');
    const victim = await makeUser(t, { name: '<img src=x onerror=alert(1)>', email: 'quote"amp&@example.test' });
    const { c: admin } = await signedIn({ admin: true });
    expect((await admin.page(`/users/${victim.id}`)).status).toBe(200);
    expect((await admin.request('users.show', { id: 999999 })).status).toBe(404);
    const page = await admin.page('/admin');
    expect(page.status).toBe(200);
    // The navigation shows the admin link by the policy users.admin (it.can in the view).
    expect(page.text).toContain('href="/admin"');
    expect(page.text).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(page.text).not.toContain('<img src=x');
    expect(page.text).toContain('quote&quot;amp&amp;@example.test');
  });
});
