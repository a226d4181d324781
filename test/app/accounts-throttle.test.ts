/**
 * Login throttling with the reference app (docs/spec.md 5.1 rule 8, 7 rule 7, 8
 * "AUTH_THROTTLE", "AUTH_THROTTLE_IP"): real HTTP from several loopback
 * addresses (127.0.0.x), counts in the database cache.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Client } from '../runtime/auth/support/client.js';
import { bootAccounts, clearCache, makeUser, type AccountsApp } from './accounts-support.js';

const PASSWORD = 'correct horse battery';
const FAILED = 'These credentials do not match our records.';
const THROTTLED = /^Too many login attempts\. Please try again in \d+ seconds?\.$/;
let a: AccountsApp;

beforeAll(async () => {
  a = await bootAccounts('accountthrottle');
});
afterAll(async () => {
  await a?.close();
});
beforeEach(async () => {
  await clearCache(a);
});

/** A JSON login from `ip`: the status and the error on email (if any). */
async function attempt(ip: string, email: string, password: string): Promise<{ status: number; error: string | undefined }> {
  const c = new Client(a.url, ip);
  await c.page('/login');
  const res = await c.json('POST', '/login', { email, password });
  return { status: res.status, error: res.status === 422 ? res.json().errors.email : undefined };
}

describe('Throttling | AUTH_THROTTLE (5) attempts per account and address a minute', () => {
  it('the 5th attempt is still checked (a right password signs in); after 5 attempts the 6th fails even with the right password', async () => {
    const user = await makeUser(a, { password: PASSWORD });
    for (let i = 1; i <= 4; i++) expect(await attempt('127.0.0.2', user.email, 'wrong')).toEqual({ status: 422, error: FAILED });
    expect((await attempt('127.0.0.2', user.email, PASSWORD)).status).toBe(303);

    const other = await makeUser(a, { password: PASSWORD });
    for (let i = 1; i <= 5; i++) expect(await attempt('127.0.0.3', other.email, 'wrong')).toEqual({ status: 422, error: FAILED });
    const sixth = await attempt('127.0.0.3', other.email, PASSWORD);
    expect(sixth.status).toBe(422);
    expect(sixth.error).toMatch(THROTTLED);
    // The throttled error is a field error on email: a browser form goes back to the login page with it.
    const c = new Client(a.url, '127.0.0.3');
    await c.page('/login');
    const form = await c.form('/login', { email: other.email, password: PASSWORD });
    expect(form.status).toBe(303);
    expect(form.location).toBe('/login');
    expect((await c.page('/login')).body).toMatch(/Too many login attempts\. Please try again in \d+ seconds?\./);
  });

  it('spellings of one login (case, surrounding spaces) share the count', async () => {
    const user = await makeUser(a, { email: 'shared.count@example.test', password: PASSWORD });
    const spellings = [
      'shared.count@example.test',
      'Shared.Count@Example.Test',
      ' shared.count@example.test ',
      'SHARED.COUNT@EXAMPLE.TEST',
      '\tshared.count@EXAMPLE.test',
    ];
    for (const s of spellings) expect((await attempt('127.0.0.4', s, 'wrong')).error).toBe(FAILED);
    expect((await attempt('127.0.0.4', 'shared.count@example.test ', PASSWORD)).error).toMatch(THROTTLED);
    expect(user.email).toBe('shared.count@example.test');
  });

  it('an unknown login is counted as well (same error, then throttled)', async () => {
    for (let i = 0; i < 5; i++) expect((await attempt('127.0.0.5', 'Nobody@Example.test', 'x')).error).toBe(FAILED);
    expect((await attempt('127.0.0.5', 'nobody@example.test', 'x')).error).toMatch(THROTTLED);
  });

  it('another account from the same address still logs in; the same account from another address too', async () => {
    const victim = await makeUser(a, { password: PASSWORD });
    const neighbour = await makeUser(a, { password: PASSWORD });
    for (let i = 0; i < 6; i++) await attempt('127.0.0.6', victim.email, 'wrong');
    expect((await attempt('127.0.0.6', victim.email, PASSWORD)).error).toMatch(THROTTLED);
    expect((await attempt('127.0.0.6', neighbour.email, PASSWORD)).status).toBe(303);
    expect((await attempt('127.0.0.7', victim.email, PASSWORD)).status).toBe(303);
  });

  it("a successful login clears the account's count from that address", async () => {
    const user = await makeUser(a, { password: PASSWORD });
    for (let i = 0; i < 4; i++) await attempt('127.0.0.8', user.email, 'wrong');
    expect((await attempt('127.0.0.8', user.email, PASSWORD)).status).toBe(303);
    for (let i = 0; i < 4; i++) expect((await attempt('127.0.0.8', user.email, 'wrong')).error).toBe(FAILED);
    expect((await attempt('127.0.0.8', user.email, PASSWORD)).status).toBe(303);
  });
});

describe('Throttling | AUTH_THROTTLE_IP (50) failures per address a minute', () => {
  it('after 50 failures from one address, whatever the login, the next attempt fails without a check, even a right one; other addresses are not affected', async () => {
    const user = await makeUser(a, { password: PASSWORD });
    // Ten logins, five failures each: none reaches its own limit.
    for (let login = 0; login < 10; login++) {
      for (let i = 0; i < 5; i++) expect((await attempt('127.0.0.20', `stranger${login}@example.test`, 'x')).error).toBe(FAILED);
    }
    expect((await attempt('127.0.0.20', user.email, PASSWORD)).error).toMatch(THROTTLED);
    expect((await attempt('127.0.0.21', user.email, PASSWORD)).status).toBe(303);
  });

  it('successful logins do not count towards it', async () => {
    const user = await makeUser(a, { password: PASSWORD });
    // Five failures per login (each under its own limit) make 49 failures from the address.
    for (let n = 0; n < 49; n++) expect((await attempt('127.0.0.30', `other${Math.floor(n / 5)}@example.test`, 'x')).error).toBe(FAILED);
    // 49 failures; three successful logins in between do not count.
    for (let i = 0; i < 3; i++) expect((await attempt('127.0.0.30', user.email, PASSWORD)).status).toBe(303);
    expect((await attempt('127.0.0.30', 'one-more@example.test', 'x')).error).toBe(FAILED);
    expect((await attempt('127.0.0.30', user.email, PASSWORD)).error).toMatch(THROTTLED);
  });
});

describe('Throttling | a login flood from one address', () => {
  /** A JSON login sent at once (no page first: JSON without a cookie needs no CSRF token). */
  async function rawAttempt(
    ip: string,
    email: string,
    password: string,
  ): Promise<{ status: number; error: string | undefined; ms: number }> {
    const start = process.hrtime.bigint();
    const res = await new Client(a.url, ip).json('POST', '/login', { email, password });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    return { status: res.status, error: res.status === 422 ? res.json().errors.email : undefined, ms };
  }

  it('costs at most AUTH_THROTTLE_IP password checks, the rest are refused unchecked; a real user elsewhere still logs in promptly', async () => {
    const user = await makeUser(a, { password: PASSWORD });
    // The real user's login time alone, for comparison.
    const alone = [];
    for (let i = 0; i < 3; i++) alone.push((await rawAttempt('127.0.0.41', user.email, PASSWORD)).ms);
    const baseline = Math.min(...alone);

    // 150 attempts at once from one address, each for another login (no per-login limit helps).
    const flood = Array.from({ length: 150 }, (_, i) => rawAttempt('127.0.0.40', `flood${i}@example.test`, 'x'));
    // While the flood is queued, the real user logs in from another address.
    await new Promise((r) => setImmediate(r));
    const during = await rawAttempt('127.0.0.41', user.email, PASSWORD);
    const results = await Promise.all(flood);

    expect(during.status).toBe(303);
    // Every flood attempt failed; only up to 50 had their password checked ("credentials"), the others were throttled.
    expect(results.every((r) => r.status === 422)).toBe(true);
    const checked = results.filter((r) => r.error === FAILED).length;
    const throttled = results.filter((r) => THROTTLED.test(r.error ?? '')).length;
    expect(checked + throttled).toBe(150);
    expect(checked, `${checked} checked, ${throttled} throttled`).toBeLessThanOrEqual(50);
    // The real user waited for about one attempt of the flood, not for its 150 hashes (150 × 25 ms or more
    // over 2 CPUs before the fix); the bound leaves room for a loaded machine.
    expect(during.ms, `during the flood ${during.ms.toFixed(0)} ms, alone ${baseline.toFixed(0)} ms`).toBeLessThan(
      Math.max(1500, baseline * 10),
    );
  });
});
