/**
 * Time in the reference app, moved by the test kit's clock
 * (docs/testing.md#time): the login throttle lifts after its minute, a reset
 * link and a verification link expire, an API token stops working at its
 * expiry, the forgot-password limit lifts — no test waits for real time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from 'bindery/testing';
import type { AccountLinks } from 'bindery/auth/links';
import type { User } from '../../generated/types.js';
import { bootReferenceKit, makeUser as makeAccount, type ReferenceKit } from './kit-support.js';

const PASSWORD = 'correct horse battery';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const clock = testClock();
let t: ReferenceKit;

beforeAll(async () => {
  t = await bootReferenceKit('clock', { clock });
});
afterAll(async () => {
  await t?.close();
});

const makeUser = (verified = true): Promise<User> => makeAccount(t, { password: PASSWORD, verified });

/** A JSON login from a fresh browser: the status and the error on email, if any. */
async function login(email: string, password: string): Promise<{ status: number; error: string | undefined }> {
  const browser = t.browser();
  await browser.send('GET', '/login', { headers: { accept: 'text/html' } });
  const res = await browser.request('accounts.login', { email, password });
  return { status: res.status, error: res.status === 422 ? (res.body as { errors: { email: string } }).errors.email : undefined };
}

describe("bindery/testing | the app runs on the kit's clock", () => {
  it('the kit exposes the clock it was given', () => {
    expect(t.clock).toBe(clock);
  });

  it('the login throttle (5 a minute) counts down with the clock and lifts after its minute, not before', async () => {
    const user = await makeUser();
    for (let i = 0; i < 5; i++) expect((await login(user.email, 'wrong')).status).toBe(422);
    expect(await login(user.email, PASSWORD)).toEqual({ status: 422, error: 'Too many login attempts. Please try again in 60 seconds.' });
    clock.advance(45_000);
    expect(await login(user.email, PASSWORD)).toEqual({ status: 422, error: 'Too many login attempts. Please try again in 15 seconds.' });
    clock.advance(14_999);
    expect((await login(user.email, PASSWORD)).error).toBe('Too many login attempts. Please try again in 1 second.');
    clock.advance(1);
    expect(await login(user.email, PASSWORD)).toEqual({ status: 303, error: undefined });
  });

  it('a reset link works until AUTH_RESET_TTL (1 h) is over, then is refused', async () => {
    const links = t.app.running.services['accountLinks'] as AccountLinks;
    const early = await makeUser();
    const late = await makeUser();
    const earlyToken = new URL(links.resetUrl(early)).searchParams.get('token')!;
    const lateToken = new URL(links.resetUrl(late)).searchParams.get('token')!;
    const reset = async (token: string) => {
      const browser = t.browser();
      await browser.send('GET', `/reset-password?token=${encodeURIComponent(token)}`, { headers: { accept: 'text/html' } });
      return browser.request('links.reset', { token, password: 'a new password here', password_confirmation: 'a new password here' });
    };
    clock.advance(HOUR - 1);
    expect((await reset(earlyToken)).status).toBe(303);
    clock.advance(1);
    const expired = await reset(lateToken);
    expect(expired.status).toBe(422);
    expect(expired.body).toMatchObject({ errors: { password: 'This password reset link is invalid or has expired. Ask for a new one.' } });
    expect((await login(late.email, PASSWORD)).status).toBe(303); // the password did not change
  });

  it('a verification link works for AUTH_VERIFY_TTL (24 h), then is a 400', async () => {
    const links = t.app.running.services['accountLinks'] as AccountLinks;
    const user = await makeUser(false);
    const path = new URL(links.verificationUrl(user)).pathname + new URL(links.verificationUrl(user)).search;
    clock.advance(24 * HOUR);
    const expired = await t.browser().send('GET', path, { headers: { accept: 'application/json' } });
    expect(expired.status).toBe(400);
    const fresh = new URL(links.verificationUrl(user));
    clock.advance(24 * HOUR - 1);
    const ok = await t.browser().send('GET', fresh.pathname + fresh.search);
    expect(ok.status).toBe(303);
    const row = await t.db.selectFrom('users').select('email_verified_at').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.email_verified_at?.getTime()).toBe(clock.now()); // stamped with the app's clock
  });

  it('an API token with a lifetime works until its expiry, then is a 401', async () => {
    const user = await makeUser();
    const holder = await t.withToken(user.id, ['profile:read'], { lifetimeMs: HOUR });
    expect((await holder.request('api.me')).status).toBe(200);
    clock.advance(HOUR - 1);
    expect((await holder.request('api.me')).status).toBe(200);
    clock.advance(1);
    expect((await holder.request('api.me')).status).toBe(401);
  });

  it('the forgot-password limit (5 a minute per address) lifts after its minute', async () => {
    const forgot = async () => {
      const browser = t.browser();
      await browser.send('GET', '/forgot-password', { headers: { accept: 'text/html' } });
      return (await browser.request('links.forgot', { email: 'nobody.clock@example.test' })).status;
    };
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push(await forgot());
    expect(statuses.slice(0, 5).every((s) => s < 400)).toBe(true);
    expect(statuses[5]).toBe(429);
    clock.advance(MINUTE - 1);
    expect(await forgot()).toBe(429);
    clock.advance(1);
    expect(await forgot()).toBeLessThan(400);
  });
});
