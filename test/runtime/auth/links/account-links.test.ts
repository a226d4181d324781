/**
 * Email verification and password reset links (docs/spec.md 2.3, 3 "User email"
 * and "Password reset token", 5.6, 7 rules 7–8): every
 * transition of the two subjects, the two token purposes kept apart,
 * absolute links on APP_URL, and the reset race — over a real PostgreSQL,
 * with the mail kept in the outbox.
 */
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, defineApp, type TestApp } from '../../../../runtime/app/index.js';
import { links, sendVerificationLink, type AccountLinks } from '../../../../runtime/auth/links/index.js';
import { RESET_LINK_INVALID, VERIFY_LINK_INVALID } from '../../../../runtime/auth/links/account-links.js';
import { BinderyError } from '../../../../runtime/errors/index.js';
import { tokens, type ApiTokens } from '../../../../runtime/auth/tokens/index.js';
import { cache } from '../../../../runtime/cache/index.js';
import { mail, readOutbox } from '../../../../runtime/mail/index.js';
import { jobs } from '../../../../runtime/jobs/index.js';
import { waitFor } from '../../jobs/wait-for.js';
import { createTestDatabase, type TestDatabase } from '../../../support/database.js';
import { fakeAuth, fakeHash, insertUser, type FakeAuthCalls, type TestUser } from '../tokens/fake-auth.js';

let clock = Date.parse('2026-05-04T08:00:00Z');
const calls: FakeAuthCalls = { logins: [], signedOutEverywhere: [] };
const app = defineApp({
  name: 'links_test',
  root: process.cwd(),
  routes: [],
  handlers: {},
  migrations: [],
  setup: [cache(), fakeAuth(calls), mail(), tokens({ now: () => clock }), links({ now: () => clock })],
});

let database: TestDatabase;
let t: TestApp;
let db: Kysely<any>;
let accountLinks: AccountLinks;

beforeAll(async () => {
  database = await createTestDatabase('links');
  t = await createTestApp(app, {
    databaseUrl: database.url,
    env: { CACHE_DRIVER: 'memory', APP_URL: 'https://accounts.example.test/app/' },
  });
  db = t.db;
  accountLinks = t.running.services.accountLinks as AccountLinks;
});
afterAll(async () => {
  await t?.close();
  await database?.drop();
});
beforeEach(() => {
  calls.logins.length = 0;
  calls.signedOutEverywhere.length = 0;
  delete calls.beforeHash;
});

const userRow = async (id: number): Promise<TestUser> =>
  (await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow()) as TestUser;
const tokenOf = (url: string): string => new URL(url).searchParams.get('token')!;

/** The link of the newest mail to `email`. */
async function mailedLink(email: string): Promise<string> {
  const [message] = await readOutbox(db, { to: email, limit: 1 });
  expect(message, `a mail to ${email}`).toBeDefined();
  expect(message!.links).toHaveLength(1);
  return message!.links[0]!;
}

describe('Account links | absolute URLs on APP_URL', () => {
  it('mails a verification link under APP_URL (its path prefix kept) with the token in the query', async () => {
    const user = await insertUser(db, { email: 'ada@example.test' });
    await accountLinks.sendVerification(user);
    const link = await mailedLink('ada@example.test');
    expect(link).toMatch(/^https:\/\/accounts\.example\.test\/app\/verify-email\?token=[A-Za-z0-9_-]+$/);
    const [message] = await readOutbox(db, { to: 'ada@example.test', limit: 1 });
    expect(message).toMatchObject({ to: ['ada@example.test'], subject: 'Verify your email address for links_test' });
    expect(message!.html).toContain(`href="${link}"`);
    expect(message!.text).toContain('24 hours');
  });

  it('mails a reset link under APP_URL with its own path', async () => {
    const user = await insertUser(db, { email: 'reset-url@example.test' });
    expect(await accountLinks.sendResetTo('  RESET-URL@example.test ')).toBe(true);
    expect(await mailedLink('reset-url@example.test')).toMatch(
      /^https:\/\/accounts\.example\.test\/app\/reset-password\?token=[A-Za-z0-9_-]+$/,
    );
    expect(await accountLinks.sendResetTo('nobody@example.test')).toBe(false);
    expect(await readOutbox(db, { to: 'nobody@example.test' })).toEqual([]);
    expect(user.id).toBeGreaterThan(0);
  });

  it('without jobs(), requestReset answers at once; the lookup and mail follow in the background', async () => {
    await insertUser(db, { email: 'background@example.test' });
    await accountLinks.requestReset('background@example.test');
    await waitFor(async () => (await readOutbox(db, { to: 'background@example.test' })).length === 1, 'the background reset mail');
  });

  it('jobs() listed after links() stops the boot, naming the order to use', async () => {
    const late = defineApp({ ...app, name: 'links_late_jobs', setup: [cache(), fakeAuth(calls), mail(), links(), jobs()] });
    await expect(createTestApp(late, { databaseUrl: database.url, migrate: false, env: { CACHE_DRIVER: 'memory' } })).rejects.toThrow(
      /list jobs\(\) before links\(\)/,
    );
  });
});

describe('User email | docs/spec.md 3 transitions', () => {
  it('unverified → verified: email_verified_at set to the current UTC time', async () => {
    const user = await insertUser(db);
    const token = tokenOf(accountLinks.verificationUrl(user));
    clock += 5_000;
    expect(await accountLinks.verifyEmail(token)).toBe('verified');
    expect((await userRow(user.id)).email_verified_at!.toISOString()).toBe(new Date(clock).toISOString());
  });

  it('verified → verified: a valid link again changes nothing (the timestamp stays)', async () => {
    const user = await insertUser(db);
    const token = tokenOf(accountLinks.verificationUrl(user));
    await accountLinks.verifyEmail(token);
    const first = (await userRow(user.id)).email_verified_at;
    clock += 60_000;
    expect(await accountLinks.verifyEmail(token)).toBe('already-verified');
    expect(await accountLinks.verifyEmail(tokenOf(accountLinks.verificationUrl(await userRow(user.id))))).toBe('already-verified');
    expect((await userRow(user.id)).email_verified_at).toEqual(first);
  });

  it('any → unchanged, 400: a garbage, truncated or tampered token', async () => {
    const user = await insertUser(db);
    const token = tokenOf(accountLinks.verificationUrl(user));
    const flipped = `${token.slice(0, 40)}${token[40] === 'A' ? 'B' : 'A'}${token.slice(41)}`;
    for (const bad of ['', 'garbage', token.slice(0, -4), flipped]) {
      await expect(accountLinks.verifyEmail(bad)).rejects.toMatchObject({
        status: 400,
        code: 'BINDERY_VERIFY_LINK_INVALID',
        message: VERIFY_LINK_INVALID,
      });
    }
    expect((await userRow(user.id)).email_verified_at).toBeNull();
  });

  it('any → unchanged, 400: an expired token (AUTH_VERIFY_TTL, 24h)', async () => {
    const user = await insertUser(db);
    const token = tokenOf(accountLinks.verificationUrl(user));
    clock += 24 * 3_600_000;
    await expect(accountLinks.verifyEmail(token)).rejects.toMatchObject({ status: 400 });
    expect((await userRow(user.id)).email_verified_at).toBeNull();
  });

  it("any → unchanged, 400: the token's email is not the user's current one, or the user is gone", async () => {
    const user = await insertUser(db, { email: 'old-address@example.test' });
    const token = tokenOf(accountLinks.verificationUrl(user));
    await db.updateTable('users').set({ email: 'new-address@example.test' }).where('id', '=', user.id).execute();
    await expect(accountLinks.verifyEmail(token)).rejects.toMatchObject({ status: 400 });
    expect((await userRow(user.id)).email_verified_at).toBeNull();
    // The new address verifies with a link made for it.
    expect(await accountLinks.verifyEmail(tokenOf(accountLinks.verificationUrl(await userRow(user.id))))).toBe('verified');

    const gone = await insertUser(db);
    const goneToken = tokenOf(accountLinks.verificationUrl(gone));
    await db.deleteFrom('users').where('id', '=', gone.id).execute();
    await expect(accountLinks.verifyEmail(goneToken)).rejects.toMatchObject({ status: 400 });
  });

  it('any → unchanged, 400: the password changed since the link was mailed', async () => {
    const user = await insertUser(db);
    const token = tokenOf(accountLinks.verificationUrl(user));
    await db
      .updateTable('users')
      .set({ password: fakeHash('changed since') })
      .where('id', '=', user.id)
      .execute();
    await expect(accountLinks.verifyEmail(token)).rejects.toMatchObject({ status: 400, code: 'BINDERY_VERIFY_LINK_INVALID' });
    expect((await userRow(user.id)).email_verified_at).toBeNull();
    expect(await accountLinks.verifyEmail(tokenOf(accountLinks.verificationUrl(await userRow(user.id))))).toBe('verified');
  });

  it('a reset token is never accepted as a verification token, nor the reverse', async () => {
    const user = await insertUser(db);
    const reset = tokenOf(accountLinks.resetUrl(user));
    const verify = tokenOf(accountLinks.verificationUrl(user));
    await expect(accountLinks.verifyEmail(reset)).rejects.toMatchObject({ status: 400 });
    await expect(accountLinks.resetPassword(verify, 'a new password')).rejects.toMatchObject({
      status: 422,
      fieldErrors: { password: RESET_LINK_INVALID },
    });
    expect(await userRow(user.id)).toMatchObject({ email_verified_at: null, password: user.password });
  });
});

describe('Password reset token | docs/spec.md 3 transitions', () => {
  it("valid → used: the password changes; the user's API tokens, sessions and remembered browsers end; the link works no more", async () => {
    const user = await insertUser(db);
    const other = await insertUser(db);
    const apiTokens = t.running.services.apiTokens as ApiTokens;
    await apiTokens.create(String(user.id), { name: 'a' });
    await apiTokens.create(String(user.id), { name: 'b' });
    const kept = await apiTokens.create(String(other.id), { name: 'c' });
    const token = tokenOf(accountLinks.resetUrl(user));

    await accountLinks.resetPassword(token, 'brand new password');
    const row = await userRow(user.id);
    expect(row.password).toBe(fakeHash('brand new password'));
    expect(row.updated_at.getTime()).toBe(clock);
    expect(await apiTokens.list(String(user.id))).toEqual([]);
    expect((await apiTokens.list(String(other.id))).map((x) => x.id)).toEqual([kept.token.id]);
    expect(calls.signedOutEverywhere).toEqual([String(user.id)]);

    await expect(accountLinks.resetPassword(token, 'yet another one')).rejects.toMatchObject({
      status: 422,
      fieldErrors: { password: RESET_LINK_INVALID },
    });
    expect((await userRow(user.id)).password).toBe(fakeHash('brand new password'));
  });

  it('valid → unchanged, 422 on password: expired (AUTH_RESET_TTL, 1h)', async () => {
    const user = await insertUser(db);
    const token = tokenOf(accountLinks.resetUrl(user));
    clock += 3_600_000;
    await expect(accountLinks.resetPassword(token, 'too late now')).rejects.toMatchObject({
      status: 422,
      fieldErrors: { password: RESET_LINK_INVALID },
    });
    expect((await userRow(user.id)).password).toBe(user.password);
    expect(calls.signedOutEverywhere).toEqual([]);
  });

  it('valid → unchanged, 422 on password: the password changed since the link was made', async () => {
    const user = await insertUser(db);
    const token = tokenOf(accountLinks.resetUrl(user));
    await db
      .updateTable('users')
      .set({ password: fakeHash('changed elsewhere') })
      .where('id', '=', user.id)
      .execute();
    await expect(accountLinks.resetPassword(token, 'mine now')).rejects.toMatchObject({ status: 422 });
    expect((await userRow(user.id)).password).toBe(fakeHash('changed elsewhere'));
  });

  it('valid → unchanged, 422 on password: the address changed since the link was mailed (the old mailbox cannot take the account over)', async () => {
    const user = await insertUser(db, { email: 'before-move@example.test' });
    const token = tokenOf(accountLinks.resetUrl(user));
    await db.updateTable('users').set({ email: 'after-move@example.test' }).where('id', '=', user.id).execute();
    await expect(accountLinks.resetPassword(token, 'taken over now')).rejects.toMatchObject({
      status: 422,
      fieldErrors: { password: RESET_LINK_INVALID },
    });
    expect((await userRow(user.id)).password).toBe(user.password);
    expect(calls.signedOutEverywhere).toEqual([]);
    // Moving back makes the link the account's again: it is bound to the address, not to a change counter.
    await db.updateTable('users').set({ email: 'before-move@example.test' }).where('id', '=', user.id).execute();
    await accountLinks.resetPassword(token, 'mine again now');
    expect((await userRow(user.id)).password).toBe(fakeHash('mine again now'));
  });

  it('two submissions at the same moment: exactly one wins, the other gets the invalid-link error and changes nothing', async () => {
    const user = await insertUser(db);
    const token = tokenOf(accountLinks.resetUrl(user));
    // Hold both submissions after their token check, then let them write together.
    let arrived = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    calls.beforeHash = async () => {
      if (++arrived === 2) release();
      await gate;
    };
    const outcomes = await Promise.allSettled([
      accountLinks.resetPassword(token, 'first password'),
      accountLinks.resetPassword(token, 'second password'),
    ]);
    expect(arrived).toBe(2);
    const won = outcomes.filter((o) => o.status === 'fulfilled');
    const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0]!.reason).toMatchObject({ status: 422, fieldErrors: { password: RESET_LINK_INVALID } });
    const winner = outcomes[0]!.status === 'fulfilled' ? 'first password' : 'second password';
    expect((await userRow(user.id)).password).toBe(fakeHash(winner));
    expect(calls.signedOutEverywhere).toEqual([String(user.id)]);
  });
});

describe('Account links | settings', () => {
  it('refuses AUTH_RESET_TTL and AUTH_VERIFY_TTL under one minute at boot, naming them', async () => {
    const other = await createTestDatabase('links_settings');
    try {
      const both = await createTestApp(app, {
        databaseUrl: other.url,
        env: { CACHE_DRIVER: 'memory', AUTH_RESET_TTL: '59s', AUTH_VERIFY_TTL: '30s' },
      }).then(
        () => null,
        (e: Error) => e.message,
      );
      expect(both).toMatch(/AUTH_VERIFY_TTL="30s": shorter than the minimum 60000 ms/);
      expect(both).toMatch(/AUTH_RESET_TTL="59s": shorter than the minimum 60000 ms/);
      const one = await createTestApp(app, { databaseUrl: other.url, env: { CACHE_DRIVER: 'memory', AUTH_RESET_TTL: '1m' } });
      await one.close();
    } finally {
      await other.drop();
    }
  });
});

describe('sendVerificationLink | for the register handler', () => {
  const logged: string[] = [];
  const log = {
    error: (_obj: unknown, msg: string) => {
      logged.push(msg);
    },
  } as any;
  const failing = (error: Error) => ({
    services: {
      accountLinks: {
        sendVerification: async () => {
          throw error;
        },
      },
    } as any,
    log,
  });

  it("mails the link through the app's links", async () => {
    const user = await insertUser(db, { email: 'register@example.test' });
    await sendVerificationLink({ services: t.running.services as any, log }, user);
    expect(await mailedLink('register@example.test')).toMatch(/\/app\/verify-email\?token=/);
  });

  it('logs a mail failure instead of failing the registration; other errors still throw', async () => {
    await expect(sendVerificationLink(failing(new BinderyError('BINDERY_MAIL_FAILED', 'SMTP down')), {})).resolves.toBeUndefined();
    expect(logged).toEqual(['the verification mail could not be sent: SMTP down']);
    await expect(sendVerificationLink(failing(new TypeError('no email property')), {})).rejects.toThrow('no email property');
  });

  it('without links() set up: BINDERY_SERVICE_NOT_SET_UP naming the setup call', async () => {
    await expect(sendVerificationLink({ services: {} as any, log }, {})).rejects.toMatchObject({
      code: 'BINDERY_SERVICE_NOT_SET_UP',
      message: expect.stringContaining('links()'),
    });
  });
});
