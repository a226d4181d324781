/**
 * Two-factor authentication over HTTP with the reference app (docs/auth.md
 * "Two-factor authentication"): enabling behind a password confirmation,
 * confirming with a first code, the login's second step, codes computed
 * independently of the app's library (RFC 6238 with node:crypto), replay,
 * recovery codes, the per-account throttle, disabling. Real HTTP, real
 * PostgreSQL, the kit's clock.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testClock, type TestCaller } from 'bindery/testing';
import type { Handlers } from '../../generated/handlers.js';
import type { User } from '../../generated/types.js';
import type { AuthService } from 'bindery/auth';
import { jobsRuntimeOf } from '../../runtime/jobs/jobs-runtime.js';
import { waitFor } from '../runtime/jobs/wait-for.js';
import { bootReferenceKit, clearCache, makeUser, type ReferenceKit } from './kit-support.js';
import { totpAt } from './totp-reference.js';

const PASSWORD = 'correct horse battery';
const clock = testClock(Date.UTC(2026, 0, 5, 9, 0, 0));
let t: ReferenceKit;

beforeAll(async () => {
  t = await bootReferenceKit('twofactor', { clock });
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await clearCache(t);
  clock.advance(60_000); // a fresh TOTP step and throttle window for each test
});

/** A signed-in browser whose password was just confirmed. */
async function confirmed(user: User): Promise<TestCaller<Handlers>> {
  const browser = await t.signIn({ email: user.email, password: PASSWORD });
  const res = await browser.request('confirm.store', { password: PASSWORD });
  expect(res.status).toBe(201);
  return browser;
}

/** Enable and confirm two-factor for `user`; its secret and recovery codes. */
async function enable(user: User): Promise<{ secret: string; codes: string[]; browser: TestCaller<Handlers> }> {
  const browser = await confirmed(user);
  expect((await browser.request('twoFactor.enable', {})).status).toBe(200);
  const secret = ((await browser.request('twoFactor.secretKey')).body as { secretKey: string }).secretKey;
  const codes = (await browser.request('twoFactor.recoveryCodes')).body as string[];
  const res = await browser.request('twoFactor.confirm', { code: totpAt(secret, clock.now()) });
  expect(res.status, res.text).toBe(200);
  clock.advance(30_000);
  return { secret, codes, browser };
}

/** The password step of a login from a fresh browser (JSON). */
async function passwordStep(user: User): Promise<TestCaller<Handlers>> {
  const browser = t.browser();
  await browser.page('/login');
  const res = await browser.request('accounts.login', { email: user.email, password: PASSWORD });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ two_factor: true });
  return browser;
}

describe('RFC 6238 | the reference TOTP of the tests', () => {
  it('gives the RFC test vector (SHA-1, T=59 s)', () => {
    expect(totpAt('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', 59_000)).toBe('287082');
  });
});

describe('Two-factor | enabling', () => {
  it('needs a fresh password confirmation: JSON gets 423, a page is sent to the confirm form and comes back', async () => {
    const user = await makeUser(t, { password: PASSWORD });
    const browser = await t.signIn({ email: user.email, password: PASSWORD });
    clock.advance(16 * 60_000); // older than AUTH_PASSWORD_TIMEOUT (15m)
    const json = await browser.request('twoFactor.enable', {});
    expect(json.status).toBe(423);
    expect((json.body as unknown as { detail: string }).detail).toMatch(/^Password confirmation required/);
    const page = await browser.page('/user/two-factor-authentication');
    expect(page.status).toBe(303);
    expect(page.location).toBe('/user/confirm-password');
    await browser.page('/user/confirm-password');
    const wrong = await browser.request('confirm.store', { password: 'not the password' }, { form: true });
    expect(wrong.location).toBe('/user/confirm-password');
    const back = await browser.request('confirm.store', { password: PASSWORD }, { form: true });
    expect(back.status).toBe(303);
    expect(back.location).toBe('/user/two-factor-authentication');
    const status = await browser.request('confirm.status');
    expect(status.body).toEqual({ confirmed: true });
    expect((await browser.page('/user/two-factor-authentication')).status).toBe(200);
  });

  it('shows a QR code (inline SVG of the otpauth URI) and the secret; a first code confirms it; recovery codes are shown once', async () => {
    const user = await makeUser(t, { password: PASSWORD });
    const browser = await confirmed(user);
    expect((await browser.request('twoFactor.qrCode')).body).toEqual([]);
    await browser.request('twoFactor.enable', {});
    const qr = (await browser.request('twoFactor.qrCode')).body as { svg: string; url: string };
    expect(qr.svg).toMatch(/^<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    const secret = ((await browser.request('twoFactor.secretKey')).body as { secretKey: string }).secretKey;
    expect(qr.url).toBe(`otpauth://totp/bindery:${encodeURIComponent(user.email)}?secret=${secret}&issuer=bindery`);
    const codes = (await browser.request('twoFactor.recoveryCodes')).body as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    expect((await browser.request('twoFactor.recoveryCodes')).body).toEqual([]);
    const rows = await t.db
      .selectFrom('bindery_recovery_codes' as never)
      .selectAll()
      .execute();
    expect(JSON.stringify(rows)).not.toContain(codes[0]);
    const stored = await t.db
      .selectFrom('bindery_two_factor' as never)
      .selectAll()
      .execute();
    expect(JSON.stringify(stored)).not.toContain(secret);
    const wrong = await browser.request('twoFactor.confirm', { code: '000000' === totpAt(secret, clock.now()) ? '111111' : '000000' });
    expect(wrong.status).toBe(422);
    expect((wrong.body as unknown as { errors: Record<string, string> }).errors).toEqual({
      code: 'The provided two factor authentication code was invalid.',
    });
    expect((await browser.request('twoFactor.confirm', { code: totpAt(secret, clock.now()) })).status).toBe(200);
    expect((await browser.request('twoFactor.show')).body).toEqual({ enabled: true, confirmed: true, recovery_codes_left: 10 });
  });
});

describe('Two-factor | the login asks for a code after the password', () => {
  it('the password leaves a pending login, not a signed-in one; a right code signs in; the same code again is refused', async () => {
    const user = await makeUser(t, { password: PASSWORD });
    const { secret } = await enable(user);
    const browser = await passwordStep(user);
    expect((await browser.send('GET', '/dashboard', { headers: { accept: 'application/json' } })).status).toBe(401);
    const wrong = await browser.request('twoFactor.challenge', { code: '12345' });
    expect(wrong.status).toBe(422);
    expect((wrong.body as { errors: Record<string, string> }).errors).toHaveProperty('code');
    const code = totpAt(secret, clock.now());
    const ok = await browser.request('twoFactor.challenge', { code });
    expect(ok.status, ok.text).toBe(204);
    expect((await browser.send('GET', '/dashboard', { headers: { accept: 'text/html' } })).status).toBe(200);
    const again = await passwordStep(user);
    const replay = await again.request('twoFactor.challenge', { code });
    expect(replay.status).toBe(422);
    expect((replay.body as { errors: Record<string, string> }).errors.code).toBe(
      'The provided two factor authentication code was invalid.',
    );
    clock.advance(30_000);
    expect((await again.request('twoFactor.challenge', { code: totpAt(secret, clock.now()) })).status).toBe(204);
  });

  it('a browser is sent to the challenge form and on to the dashboard; t.signIn(user, { totp: true }) does the same', async () => {
    const user = await makeUser(t, { password: PASSWORD });
    const { secret } = await enable(user);
    const browser = t.browser();
    await browser.page('/login');
    const login = await browser.request('accounts.login', { email: user.email, password: PASSWORD }, { form: true });
    expect(login.location).toBe('/two-factor-challenge');
    expect((await browser.page('/two-factor-challenge')).status).toBe(200);
    const done = await browser.request('twoFactor.challenge', { code: totpAt(secret, clock.now()) }, { form: true });
    expect(done.location).toBe('/dashboard');
    clock.advance(30_000);
    const kit = await t.signIn({ email: user.email, password: PASSWORD }, { totp: true });
    expect((await kit.page('/dashboard')).status).toBe(200);
  });

  it('a recovery code signs in once; used twice it is refused', async () => {
    const user = await makeUser(t, { password: PASSWORD });
    const { codes } = await enable(user);
    const first = await passwordStep(user);
    expect((await first.request('twoFactor.challenge', { recovery_code: codes[3]!.toUpperCase() })).status).toBe(204);
    const second = await passwordStep(user);
    const reused = await second.request('twoFactor.challenge', { recovery_code: codes[3]! });
    expect(reused.status).toBe(422);
    expect((reused.body as { errors: Record<string, string> }).errors).toEqual({
      recovery_code: 'The provided two factor recovery code was invalid.',
    });
    const kit = await t.signIn({ email: user.email, password: PASSWORD }, { recoveryCode: codes[4]! });
    expect((await kit.request('twoFactor.show')).status).toBe(423); // signed in; the page itself needs a confirmation
    const entries = (
      await sql<{
        action: string;
        actor_id: string | null;
        properties: unknown;
      }>`SELECT action, actor_id, properties FROM audit_log WHERE subject_id = ${String(user.id)}`.execute(t.db)
    ).rows;
    expect(entries.map((e) => e.action)).toEqual(
      expect.arrayContaining(['auth.two_factor_enabled', 'auth.two_factor_confirmed', 'auth.recovery_code_used', 'auth.two_factor_failed']),
    );
    expect(entries.every((e) => e.actor_id === String(user.id))).toBe(true);
    expect(JSON.stringify(entries)).not.toContain(codes[3]!);
  });

  it('regenerating replaces the codes; disabling needs a fresh confirmation and turns the second step off', async () => {
    const user = await makeUser(t, { password: PASSWORD });
    const { codes, browser } = await enable(user);
    expect((await browser.request('twoFactor.regenerateCodes', {})).status).toBe(200);
    const fresh = (await browser.request('twoFactor.recoveryCodes')).body as string[];
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(codes[0]);
    clock.advance(16 * 60_000);
    expect((await browser.request('twoFactor.disable')).status).toBe(423);
    expect((await browser.request('confirm.store', { password: PASSWORD })).status).toBe(201);
    expect((await browser.request('twoFactor.disable')).status).toBe(200);
    const login = t.browser();
    await login.page('/login');
    expect((await login.request('accounts.login', { email: user.email, password: PASSWORD }, { form: true })).location).toBe('/dashboard');
  });
});

describe('Two-factor | wrong codes lock the account out, growing, and its owner is told', () => {
  type LockRow = { failed_codes: number; locked_until: number | null; lockout_notified_at: Date | null };
  const lockRow = async (user: User): Promise<LockRow> => {
    const row = (await (t.db as any)
      .selectFrom('bindery_two_factor')
      .select(['failed_codes', 'locked_until', 'lockout_notified_at'])
      .where('user_id', '=', String(user.id))
      .executeTakeFirstOrThrow()) as { failed_codes: number; locked_until: number | string | null; lockout_notified_at: Date | null };
    return { ...row, locked_until: row.locked_until === null ? null : Number(row.locked_until) };
  };
  const wrongFor = (secret: string) => (totpAt(secret, clock.now()) === '999999' ? '999998' : '999999');
  const lockoutMails = async (user: User) => (await t.outbox(user.email)).filter((m) => /wrong two-factor codes/i.test(m.subject));

  it('five wrong codes lock codes out for a minute for every pending login of the account (429, Retry-After); each further one doubles it', async () => {
    const user = await makeUser(t, { password: PASSWORD });
    const { secret } = await enable(user);
    const attacker = await passwordStep(user);
    for (let i = 0; i < 5; i++) expect((await attacker.request('twoFactor.challenge', { code: wrongFor(secret) })).status).toBe(422);
    const locked = await attacker.request('twoFactor.challenge', { code: totpAt(secret, clock.now()) });
    expect(locked.status).toBe(429);
    expect(locked.headers.get('retry-after')).toBe('60');
    expect((locked.body as unknown as { errors: Record<string, string> }).errors.code).toMatch(/^Too many wrong two-factor codes/);
    // Counted per account: another login (the owner's, elsewhere) is locked too, and the row holds it (every instance, after a restart).
    const owner = await passwordStep(user);
    expect((await owner.request('twoFactor.challenge', { code: totpAt(secret, clock.now()) })).status).toBe(429);
    expect(await lockRow(user)).toMatchObject({ failed_codes: 5, locked_until: clock.now() + 60_000 });

    clock.advance(60_000);
    expect((await attacker.request('twoFactor.challenge', { code: wrongFor(secret) })).status).toBe(422);
    expect((await attacker.request('twoFactor.challenge', { code: wrongFor(secret) })).headers.get('retry-after')).toBe('120');
    clock.advance(120_000);
    expect((await attacker.request('twoFactor.challenge', { code: wrongFor(secret) })).status).toBe(422);
    expect((await owner.request('twoFactor.challenge', { code: totpAt(secret, clock.now()) })).headers.get('retry-after')).toBe('240');
    clock.advance(240_000);
    // Once the lock has passed, the owner's right code signs in and clears the count.
    expect((await owner.request('twoFactor.challenge', { code: totpAt(secret, clock.now()) })).status).toBe(204);
    expect(await lockRow(user)).toMatchObject({ failed_codes: 0, locked_until: null });
  });

  it('the owner is mailed once per lockout, through the jobs; a recovery code still signs in while locked and ends it', async () => {
    await jobsRuntimeOf(t.app.running.services)!.startWorker({ pollIntervalMs: 100 });
    const user = await makeUser(t, { password: PASSWORD });
    const { secret, codes } = await enable(user);
    const attacker = await passwordStep(user);
    for (let i = 0; i < 5; i++) await attacker.request('twoFactor.challenge', { code: wrongFor(secret) });
    clock.advance(60_000);
    await attacker.request('twoFactor.challenge', { code: wrongFor(secret) });
    await waitFor(async () => (await lockoutMails(user)).length > 0, 'the lockout mail');
    const [mail] = await lockoutMails(user);
    expect(mail!.text).toMatch(/5 wrong two-factor codes/);
    expect(mail!.text).toMatch(/change your password/i);
    expect(mail!.text).not.toContain(secret);
    expect((await lockRow(user)).lockout_notified_at).not.toBeNull();

    const owner = await passwordStep(user);
    expect((await owner.request('twoFactor.challenge', { code: totpAt(secret, clock.now()) })).status).toBe(429);
    expect((await owner.request('twoFactor.challenge', { recovery_code: codes[0]! })).status).toBe(204);
    expect(await lockRow(user)).toMatchObject({ failed_codes: 0, locked_until: null, lockout_notified_at: null });
    expect(await lockoutMails(user)).toHaveLength(1);
  });

  it("a password changed since starts a fresh count: the attacker's failures no longer lock the owner out", async () => {
    const user = await makeUser(t, { password: PASSWORD });
    const { secret } = await enable(user);
    const attacker = await passwordStep(user);
    for (let i = 0; i < 5; i++) await attacker.request('twoFactor.challenge', { code: wrongFor(secret) });
    expect((await attacker.request('twoFactor.challenge', { code: wrongFor(secret) })).status).toBe(429);
    const auth = t.app.running.services['auth'] as AuthService<User>;
    await t.db
      .updateTable('users')
      .set({ password: await auth.hashPassword('a fresh password') })
      .where('id', '=', user.id)
      .execute();
    // The attacker's pending login ended with the password; the owner's new one is not locked.
    expect((await attacker.request('twoFactor.challenge', { code: totpAt(secret, clock.now()) })).status).toBe(422);
    const owner = t.browser();
    await owner.page('/login');
    expect((await owner.request('accounts.login', { email: user.email, password: 'a fresh password' })).body).toEqual({ two_factor: true });
    expect((await owner.request('twoFactor.challenge', { code: totpAt(secret, clock.now()) })).status).toBe(204);
  });

  it("recovery codes are limited per pending login (AUTH_TWO_FACTOR_THROTTLE a minute): another login's tries do not use up the owner's", async () => {
    const user = await makeUser(t, { password: PASSWORD });
    const { codes } = await enable(user);
    const attacker = await passwordStep(user);
    for (let i = 0; i < 5; i++)
      expect((await attacker.request('twoFactor.challenge', { recovery_code: `wrong-${i}0000` })).status).toBe(422);
    const throttled = await attacker.request('twoFactor.challenge', { recovery_code: codes[1]! });
    expect(throttled.status).toBe(422);
    expect((throttled.body as { errors: Record<string, string> }).errors.recovery_code).toMatch(/^Too many two-factor attempts/);
    const owner = await passwordStep(user);
    expect((await owner.request('twoFactor.challenge', { recovery_code: codes[1]! })).status).toBe(204);
  });
});

describe('Two-factor | turning it on ends the credentials made before it (database sessions)', () => {
  let d: ReferenceKit;
  beforeAll(async () => {
    d = await bootReferenceKit('twofactorsignout', { clock, env: { SESSION_DRIVER: 'database' } });
  });
  afterAll(async () => {
    await d?.close();
  });

  it('a remember-me cookie made before signs in no more (no code was asked for it); other sessions and API tokens end; this browser stays', async () => {
    const user = await makeUser(d, { password: PASSWORD });
    const remembered = d.browser();
    await remembered.page('/login');
    const login = await remembered.request('accounts.login', { email: user.email, password: PASSWORD, remember: true }, { form: true });
    expect(login.location).toBe('/dashboard');
    const rememberCookie = [...remembered.cookies!].find(([name]) => name.includes('remember'))!;
    expect(rememberCookie).toBeDefined();
    const other = await d.signIn({ email: user.email, password: PASSWORD });
    const api = await d.withToken(user.id, ['profile:read']);
    expect((await api.request('api.me')).status).toBe(200);

    const browser = await d.signIn({ email: user.email, password: PASSWORD });
    expect((await browser.request('confirm.store', { password: PASSWORD })).status).toBe(201);
    expect((await browser.request('twoFactor.enable', {})).status).toBe(200);
    const secret = ((await browser.request('twoFactor.secretKey')).body as { secretKey: string }).secretKey;
    expect((await browser.request('twoFactor.confirm', { code: totpAt(secret, clock.now()) })).status).toBe(200);

    // Only the remember cookie (a browser whose session ended): it would skip the code, so it is refused.
    const cookieOnly = d.browser();
    cookieOnly.cookies!.set(rememberCookie[0], rememberCookie[1]);
    const page = await cookieOnly.page('/dashboard');
    expect(page.status).toBe(303);
    expect(page.location).toBe('/login');
    expect((await other.send('GET', '/dashboard', { headers: { accept: 'application/json' } })).status).toBe(401);
    expect((await api.request('api.me')).status).toBe(401);
    expect((await browser.page('/dashboard')).status).toBe(200);
    const [entry] = (
      await sql<{
        properties: unknown;
      }>`SELECT properties FROM audit_log WHERE subject_id = ${String(user.id)} AND action = 'auth.two_factor_confirmed'`.execute(d.db)
    ).rows;
    expect(JSON.stringify(entry?.properties)).toContain('signed_out_others');
  });
});
