/**
 * Email verification and password reset in the reference app (docs/spec.md
 * 2.3, 3 "User email" and "Password reset token", 4.1, 5.6, 7 rules 6–8, 8
 * "forgot-password route"): the links are read from the
 * outbox and followed over real HTTP.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Client } from '../runtime/auth/support/client.js';
import { FORGOT_PASSWORD_STATUS } from '../../app/handlers/links.js';
import {
  bootReferenceApp,
  clearCounters,
  makeAccount,
  newestMail,
  pathOf,
  resetMailsSent,
  signIn,
  startWorker,
  type ReferenceApp,
} from './tokens-support.js';

let a: ReferenceApp;

beforeAll(async () => {
  a = await bootReferenceApp('links_app', { APP_URL: 'https://bindery.example.test' });
  // Reset mails are jobs: the worker runs in this process, as under `npm start`.
  await startWorker(a);
});
afterAll(async () => {
  await a?.close();
});
beforeEach(async () => {
  await clearCounters(a);
});

const userRow = (id: number) => a.t.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** The link of the newest mail to `email`, checked to be absolute on APP_URL. */
async function mailedLink(email: string, path: string): Promise<string> {
  await resetMailsSent(a);
  const mail = await newestMail(a, email);
  expect(mail, `a mail to ${email}`).toBeDefined();
  const link = mail!.links.find((l) => l.startsWith(`https://bindery.example.test${path}?token=`));
  expect(link, `a ${path} link in "${mail!.text}"`).toBeDefined();
  return link!;
}

describe('GET /verify-email | following the link mailed at registration', () => {
  it('register → the outbox has the link → following it verifies the address (303 /dashboard, status); again: unchanged', async () => {
    const c = new Client(a.url);
    await c.page('/register');
    const reg = await c.form('/register', {
      name: 'Ada',
      email: 'ada.verify@example.test',
      password: 'analytical engine',
      password_confirmation: 'analytical engine',
    });
    expect(reg.status).toBe(303);
    const link = await mailedLink('ada.verify@example.test', '/verify-email');
    const user = await a.t.db.selectFrom('users').selectAll().where('email', '=', 'ada.verify@example.test').executeTakeFirstOrThrow();
    expect(user.email_verified_at).toBeNull();

    const before = Date.now();
    const res = await c.send('GET', pathOf(link), { headers: { accept: 'text/html' } });
    expect(res.status).toBe(303);
    expect(res.location).toBe('/dashboard');
    const verifiedAt = (await userRow(user.id)).email_verified_at!;
    expect(verifiedAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(verifiedAt.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    const dash = await c.page('/dashboard');
    expect(dash.body).toContain('your email address is verified');

    const again = await c.send('GET', pathOf(link));
    expect(again.status).toBe(303);
    expect(again.location).toBe('/dashboard');
    expect((await userRow(user.id)).email_verified_at).toEqual(verifiedAt);
  });

  it('works for a guest too (the pages group); a bad or missing token is 400 (HTML page, or problem details)', async () => {
    const user = await makeAccount(a);
    const guest = new Client(a.url);
    const token = new URL(a.links.verificationUrl(user)).searchParams.get('token')!;
    for (const path of ['/verify-email?token=nonsense', `/verify-email?token=${token.slice(0, -2)}`, '/verify-email']) {
      const page = await guest.send('GET', path, { headers: { accept: 'text/html' } });
      expect(page.status, path).toBe(400);
      expect(page.body).toContain('This verification link is invalid or has expired');
      const json = await guest.send('GET', path, { headers: { accept: 'application/json' } });
      expect(json.status).toBe(400);
      expect(json.json()).toMatchObject({ status: 400, detail: expect.stringContaining('invalid or has expired') });
    }
    expect((await userRow(user.id)).email_verified_at).toBeNull();
    const ok = await guest.send('GET', `/verify-email?token=${token}`);
    expect(ok.status).toBe(303);
    expect((await userRow(user.id)).email_verified_at).not.toBeNull();
  });

  it('a reset link is not a verification link (400), and an address changed since the link was sent is refused', async () => {
    const user = await makeAccount(a);
    const links = a.links;
    const reset = new URL(links.resetUrl(user)).searchParams.get('token')!;
    expect((await new Client(a.url).send('GET', `/verify-email?token=${reset}`)).status).toBe(400);
    const link = links.verificationUrl(user);
    await a.t.db
      .updateTable('users')
      .set({ email: `changed-${user.email}` })
      .where('id', '=', user.id)
      .execute();
    expect((await new Client(a.url).send('GET', pathOf(link))).status).toBe(400);
    expect((await userRow(user.id)).email_verified_at).toBeNull();
  });

  it('POST /verify-email/resend mails a new link to a signed-in, unverified user', async () => {
    const user = await makeAccount(a);
    const c = await signIn(a, user);
    await c.page('/dashboard');
    const res = await c.form('/verify-email/resend', {});
    expect(res.status).toBe(303);
    expect(res.location).toBe('/dashboard');
    expect(res.headers['x-ratelimit-limit']).toBe('5');
    const link = await mailedLink(user.email, '/verify-email');
    expect((await c.send('GET', pathOf(link))).status).toBe(303);
    expect((await userRow(user.id)).email_verified_at).not.toBeNull();
  });
});

describe('POST /forgot-password | the same answer, mail only for accounts, 5 a minute per address and client, one mail a minute', () => {
  it('answers an existing and an unknown address alike (303 /login, same status); mails only the existing one', async () => {
    const user = await makeAccount(a);
    const known = new Client(a.url);
    await known.page('/forgot-password');
    const r1 = await known.form('/forgot-password', { email: user.email.toUpperCase() });
    const unknown = new Client(a.url);
    await unknown.page('/forgot-password');
    const r2 = await unknown.form('/forgot-password', { email: 'no-such-account@example.test' });
    for (const r of [r1, r2]) {
      expect(r.status).toBe(303);
      expect(r.location).toBe('/login');
      expect(r.headers['x-ratelimit-limit']).toBe('5');
      expect(r.headers['x-ratelimit-remaining']).toBe('4');
    }
    expect((await known.page('/login')).body).toContain(FORGOT_PASSWORD_STATUS.replace(/'/g, '&#39;'));
    expect((await unknown.page('/login')).body).toContain(FORGOT_PASSWORD_STATUS.replace(/'/g, '&#39;'));
    await mailedLink(user.email, '/reset-password');
    expect(await newestMail(a, 'no-such-account@example.test')).toBeUndefined();
  });

  it("the address limit counts per client: strangers asking for an address do not use up its owner's requests; the address gets one mail a minute", async () => {
    const victim = await makeAccount(a, { email: 'limited@example.test' });
    const c = new Client(a.url);
    await c.page('/forgot-password');
    for (let i = 0; i < 5; i++) {
      // Five requests from one stranger (the route limit and the address limit both allow 5 a minute per client)…
      const r = await c.clone('127.0.5.1').json('POST', '/forgot-password', { email: 'limited@example.test' });
      expect(r.status).toBe(303);
      expect(r.headers['x-ratelimit-remaining']).toBe(String(4 - i));
    }
    const sixth = await c.clone('127.0.5.1').json('POST', '/forgot-password', { email: 'LIMITED@Example.test' });
    expect(sixth.status).toBe(429);
    const retryAfter = Number(sixth.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(sixth.headers['x-ratelimit-remaining']).toBe('0');
    expect(sixth.json()).toMatchObject({ status: 429, title: 'Too Many Requests' });
    // …and the owner, from another address, is not refused.
    const own = await c.clone('127.0.5.2').json('POST', '/forgot-password', { email: victim.email });
    expect(own.status).toBe(303);
    expect(own.headers['x-ratelimit-remaining']).toBe('4');
    // Six requests (five and the owner's), one mail: the rest are coalesced into it, and its link works.
    await resetMailsSent(a);
    const { readOutbox } = await import('../../runtime/mail/outbox.js');
    expect(await readOutbox(a.db, { to: victim.email })).toHaveLength(1);
    await mailedLink(victim.email, '/reset-password');
  });

  it('the route limit: the 6th request in a minute from one client address is 429 with Retry-After, whatever emails it names; another address is not limited', async () => {
    const c = new Client(a.url, '127.0.6.1');
    await c.page('/forgot-password');
    for (let i = 0; i < 5; i++) expect((await c.form('/forgot-password', { email: `someone${i}@example.test` })).status).toBe(303);
    const sixth = await c.json('POST', '/forgot-password', { email: 'someone5@example.test' });
    expect(sixth.status).toBe(429);
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(sixth.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(sixth.json()).toMatchObject({ status: 429, title: 'Too Many Requests' });
    expect(await newestMail(a, 'someone5@example.test')).toBeUndefined();
    const page = await c.form('/forgot-password', { email: 'someone6@example.test' });
    expect(page.status).toBe(429);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect((await c.clone('127.0.6.2').form('/forgot-password', { email: 'someone6@example.test' })).status).toBe(303);
  });
});

describe('POST /register | 5 a minute per client address', () => {
  it('the 6th sign-up in a minute from one address is 429 with Retry-After; no account made, no mail sent', async () => {
    const c = new Client(a.url, '127.0.7.1');
    for (let i = 0; i < 5; i++) {
      const r = await c.clone().json('POST', '/register', {
        name: 'Signup',
        email: `signup${i}@example.test`,
        password: 'analytical engine',
        password_confirmation: 'analytical engine',
      });
      expect(r.status).toBe(303);
      expect(r.headers['x-ratelimit-remaining']).toBe(String(4 - i));
    }
    const sixth = await c.clone().json('POST', '/register', {
      name: 'Signup',
      email: 'signup5@example.test',
      password: 'analytical engine',
      password_confirmation: 'analytical engine',
    });
    expect(sixth.status).toBe(429);
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(await a.t.db.selectFrom('users').select('id').where('email', '=', 'signup5@example.test').executeTakeFirst()).toBeUndefined();
    expect(await newestMail(a, 'signup5@example.test')).toBeUndefined();
  });
});

describe("mail to a suppressed address | the mail-provider plugin's list", () => {
  it('is skipped: forgot-password answers the same, but nothing is kept in the outbox', async () => {
    const user = await makeAccount(a);
    await a.t.db
      .insertInto('mailprovider_suppressions' as any)
      .values({ email: user.email, event: 'HardBounce' })
      .execute();
    const c = new Client(a.url);
    await c.page('/forgot-password');
    const res = await c.form('/forgot-password', { email: user.email });
    expect(res.status).toBe(303);
    expect(res.location).toBe('/login');
    await resetMailsSent(a);
    expect(await newestMail(a, user.email)).toBeUndefined();
    // Without the suppression the same request mails the link.
    await a.t.db
      .deleteFrom('mailprovider_suppressions' as any)
      .where('email', '=', user.email)
      .execute();
    await c.form('/forgot-password', { email: user.email });
    await resetMailsSent(a);
    expect(await newestMail(a, user.email)).toBeDefined();
  });
});

describe('POST /reset-password | following the reset link', () => {
  it("sets the new password, ends the user's other sessions, remembered browsers and API tokens; 303 /login with a status; the link is used up", async () => {
    const user = await makeAccount(a, { password: 'old password 1' });
    const elsewhere = await signIn(a, user, 'old password 1', true);
    const rememberBefore = (await userRow(user.id)).remember_token;
    expect(rememberBefore).not.toBeNull();
    const { plain } = await a.apiTokens.create(String(user.id), { name: 'cli', abilities: ['profile:read'] });
    const other = await makeAccount(a);
    const kept = await a.apiTokens.create(String(other.id), { name: 'cli', abilities: ['profile:read'] });

    const c = new Client(a.url);
    await c.page('/forgot-password');
    await c.form('/forgot-password', { email: user.email });
    const link = await mailedLink(user.email, '/reset-password');
    const form = await c.page(pathOf(link));
    expect(form.status).toBe(200);
    const token = new URL(link).searchParams.get('token')!;
    expect(form.body).toContain(`name="token" value="${token}"`);
    const res = await c.form(
      '/reset-password',
      { token, password: 'new password 2', password_confirmation: 'new password 2' },
      { referer: pathOf(link) },
    );
    expect(res.status).toBe(303);
    expect(res.location).toBe('/login');
    expect((await c.page('/login')).body).toContain('Your password has been reset');

    expect(await a.auth.verifyPassword((await userRow(user.id)).password, 'new password 2')).toBe(true);
    expect((await userRow(user.id)).remember_token).not.toBe(rememberBefore);
    // The other browser's session ends on its next request.
    const dash = await elsewhere.send('GET', '/dashboard', { headers: { accept: 'text/html' } });
    expect(dash.status).toBe(303);
    expect(dash.location).toBe('/login');
    // The API tokens of the user are revoked; another user's stay.
    expect(await a.apiTokens.list(String(user.id))).toEqual([]);
    expect((await fetch(`${a.url}/api/me`, { headers: { authorization: `Bearer ${plain}` } })).status).toBe(401);
    expect((await fetch(`${a.url}/api/me`, { headers: { authorization: `Bearer ${kept.plain}` } })).status).toBe(200);
    // Logging in: the new password works, the old one does not.
    await expect(signIn(a, user, 'old password 1')).rejects.toThrow();
    await signIn(a, user, 'new password 2');

    // The link is used up: 422 on password.
    const again = await c.json('POST', '/reset-password', { token, password: 'third password', password_confirmation: 'third password' });
    expect(again.status).toBe(422);
    expect(again.json().errors).toEqual({ password: 'This password reset link is invalid or has expired. Ask for a new one.' });
  });

  it('a bad link from a browser goes back to the form with the error on password (never the password typed)', async () => {
    const c = new Client(a.url);
    await c.page('/reset-password?token=tampered');
    const res = await c.form(
      '/reset-password',
      { token: 'tampered', password: 'some new password', password_confirmation: 'some new password' },
      { referer: '/reset-password?token=tampered' },
    );
    expect(res.status).toBe(303);
    expect(res.location).toBe('/reset-password?token=tampered');
    const back = await c.page('/reset-password?token=tampered');
    expect(back.body).toContain('This password reset link is invalid or has expired');
    expect(back.body).not.toContain('some new password');
  });

  it('two submissions of one link at the same moment: exactly one wins (303), the other gets 422 on password', async () => {
    const user = await makeAccount(a, { password: 'before the race' });
    const token = new URL(a.links.resetUrl(user)).searchParams.get('token')!;
    const one = new Client(a.url);
    const two = new Client(a.url);
    await Promise.all([one.page('/forgot-password'), two.page('/forgot-password')]);
    const [r1, r2] = await Promise.all([
      one.json('POST', '/reset-password', { token, password: 'winner one 111', password_confirmation: 'winner one 111' }),
      two.json('POST', '/reset-password', { token, password: 'winner two 222', password_confirmation: 'winner two 222' }),
    ]);
    expect([r1.status, r2.status].sort()).toEqual([303, 422]);
    const loser = r1.status === 422 ? r1 : r2;
    expect(loser.json().errors).toEqual({ password: 'This password reset link is invalid or has expired. Ask for a new one.' });
    const hash = (await userRow(user.id)).password;
    const winner = r1.status === 303 ? 'winner one 111' : 'winner two 222';
    const other = r1.status === 303 ? 'winner two 222' : 'winner one 111';
    expect(await a.auth.verifyPassword(hash, winner)).toBe(true);
    expect(await a.auth.verifyPassword(hash, other)).toBe(false);
  });

  it('a link mailed to the old address works no more once the owner changed the address: 422 on password, the new password is refused', async () => {
    const user = await makeAccount(a, { password: 'old password 1', verified: true });
    const holder = new Client(a.url); // whoever reads the old mailbox
    await holder.page('/forgot-password');
    await holder.form('/forgot-password', { email: user.email });
    const link = await mailedLink(user.email, '/reset-password');
    // The owner moves to a new address (a fresh password confirmation first) and follows the link mailed there.
    const owner = await signIn(a, user, 'old password 1');
    await owner.page('/user/profile');
    expect((await owner.json('POST', '/user/confirm-password', { password: 'old password 1' })).status).toBe(201);
    const next = `moved-${user.id}@example.test`;
    expect((await owner.json('PUT', '/user/profile-information', { name: user.name, email: next })).status).toBe(200);
    const change = await newestMail(a, next);
    expect((await new Client(a.url).send('GET', pathOf(change!.links[0]!))).status).toBe(303);
    expect((await userRow(user.id)).email).toBe(next);

    const token = new URL(link).searchParams.get('token')!;
    await holder.page(pathOf(link));
    const res = await holder.json('POST', '/reset-password', {
      token,
      password: 'taken over 123',
      password_confirmation: 'taken over 123',
    });
    expect(res.status).toBe(422);
    expect(res.json().errors).toEqual({ password: 'This password reset link is invalid or has expired. Ask for a new one.' });
    expect(await a.auth.verifyPassword((await userRow(user.id)).password, 'old password 1')).toBe(true);
    await expect(signIn(a, { ...user, email: next }, 'taken over 123')).rejects.toThrow();
    await signIn(a, { ...user, email: next }, 'old password 1');
  });

  it('a signed-in user is sent home from the reset pages (guest group)', async () => {
    const c = await signIn(a, await makeAccount(a));
    const res = await c.send('GET', '/reset-password?token=x', { headers: { accept: 'text/html' } });
    expect(res.status).toBe(303);
    expect(res.location).toBe('/dashboard');
  });
});
