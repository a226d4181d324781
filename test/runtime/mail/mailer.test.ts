/**
 * The mailer (docs/spec.md 6.2 "consult the suppression list
 * before sending mail"): the outbox driver keeps each message as nodemailer
 * built it, the SMTP driver delivers to a real (fake) SMTP server, and
 * suppressed recipients are skipped by both; the settings.
 */
import { readFile } from 'node:fs/promises';
import { Writable } from 'node:stream';
import type { Kysely } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../runtime/app/logger.js';
import { loadSettings } from '../../../runtime/config/load-settings.js';
import { connectDatabase } from '../../../runtime/db/index.js';
import { createMigrator } from '../../../runtime/db/migrator/index.js';
import { AppMailer, linksOf, maskEmail, readOutbox } from '../../../runtime/mail/index.js';
import { mailSettings } from '../../../runtime/mail/settings.js';
import { MAIL_MIGRATIONS_DIR } from '../../../runtime/mail/mail-step.js';
import type { MailSuppression } from '../../../runtime/mail/mail-suppression.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { startFakeSmtp, type FakeSmtp } from './fake-smtp.js';

let database: TestDatabase;
let db: Kysely<any>;
let closeDb: () => Promise<void>;
let smtp: FakeSmtp;
const log = createLogger('silent', 'mail_test');

/** A suppression list of the given addresses (compared lower-cased, as the plugin does). */
function suppressing(...emails: string[]): { mailSuppression: MailSuppression } {
  const set = new Set(emails.map((e) => e.toLowerCase()));
  return {
    mailSuppression: {
      isSuppressed: async (email) => set.has(email.trim().toLowerCase()),
      suppressedAmong: async (list) => new Set(list.map((e) => e.trim().toLowerCase()).filter((e) => set.has(e))),
    },
  };
}

const outbox = (services: object = {}, logger = log) =>
  new AppMailer({ settings: loadSettings(mailSettings, { APP_ENV: 'testing' }), db, services, log: logger });

/** A logger keeping its JSON lines. */
function capture(): { lines: Array<Record<string, unknown>>; log: pino.Logger } {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { lines, log: pino({ level: 'debug' }, stream) };
}

beforeAll(async () => {
  database = await createTestDatabase('mail');
  const connected = await connectDatabase({ url: database.url, max: 4 });
  db = connected.db;
  closeDb = () => connected.close();
  await createMigrator(connected, [{ source: 'mail', dir: MAIL_MIGRATIONS_DIR }]).migrate();
  smtp = await startFakeSmtp();
});
afterAll(async () => {
  await smtp?.close();
  await closeDb?.();
  await database?.drop();
});
beforeEach(async () => {
  await db.deleteFrom('mail_outbox').execute();
  await db.deleteFrom('mail_sent').execute();
  smtp.received.length = 0;
});

describe('AppMailer | outbox driver', () => {
  it('keeps the message as nodemailer built it: recipients, sender, subject, bodies and the raw MIME', async () => {
    const result = await outbox().send({
      to: 'Ada@Example.test',
      subject: 'Hello there',
      text: 'Open https://app.test/verify-email?token=abc_DEF-1 now.\n',
      html: '<p>Hi</p>',
    });
    expect(result).toEqual({ delivered: ['Ada@Example.test'], skipped: [] });
    const [kept] = await readOutbox(db);
    expect(kept).toMatchObject({
      to: ['Ada@Example.test'],
      from: 'no-reply@localhost',
      subject: 'Hello there',
      html: '<p>Hi</p>',
      links: ['https://app.test/verify-email?token=abc_DEF-1'],
    });
    const { raw } = await db.selectFrom('mail_outbox').select('raw').executeTakeFirstOrThrow();
    expect(raw).toMatch(/^Subject: Hello there$/m);
    expect(raw).toMatch(/^To: Ada@example\.test$/m);
    expect(raw).toMatch(/^Message-ID: <[^>]+>$/m);
    expect(raw).toContain('multipart/alternative');
  });

  it('reads newest first, filters by recipient (any case) and limits', async () => {
    const mailer = outbox();
    await mailer.send({ to: 'a@example.test', subject: 'one', text: 'x' });
    await mailer.send({ to: ['b@example.test', 'A@example.test'], subject: 'two', text: 'x' });
    await mailer.send({ to: 'c@example.test', subject: 'three', text: 'x' });
    expect((await readOutbox(db)).map((m) => m.subject)).toEqual(['three', 'two', 'one']);
    expect((await readOutbox(db, { to: 'a@EXAMPLE.test' })).map((m) => m.subject)).toEqual(['two', 'one']);
    expect((await readOutbox(db, { limit: 1 })).map((m) => m.subject)).toEqual(['three']);
  });

  it('skips suppressed recipients before sending; a message with none left is not kept', async () => {
    const mailer = outbox(suppressing('bounced@example.test'));
    expect(await mailer.send({ to: ['ok@example.test', 'Bounced@Example.test'], subject: 'partly', text: 'x' })).toEqual({
      delivered: ['ok@example.test'],
      skipped: ['Bounced@Example.test'],
    });
    expect(await mailer.send({ to: 'bounced@example.test', subject: 'not at all', text: 'x' })).toEqual({
      delivered: [],
      skipped: ['bounced@example.test'],
    });
    const kept = await readOutbox(db);
    expect(kept.map((m) => [m.subject, m.to])).toEqual([['partly', ['ok@example.test']]]);
  });

  it('keeps one message per idempotency key: a second send with the key is a no-op', async () => {
    const mailer = outbox();
    const first = await mailer.send({ to: 'ada@example.test', subject: 'Welcome', text: 'one', idempotencyKey: 'welcome:42' });
    const again = await mailer.send({ to: 'ada@example.test', subject: 'Welcome', text: 'two', idempotencyKey: 'welcome:42' });
    await mailer.send({ to: 'ada@example.test', subject: 'Welcome', text: 'other key', idempotencyKey: 'welcome:43' });
    await mailer.send({ to: 'ada@example.test', subject: 'Welcome', text: 'no key' });
    expect(first).toEqual({ delivered: ['ada@example.test'], skipped: [] });
    expect(again).toEqual({ delivered: ['ada@example.test'], skipped: [], alreadySent: true });
    expect((await readOutbox(db)).map((m) => m.text)).toEqual(['no key', 'other key', 'one']);
    const keys = await db.selectFrom('mail_outbox').select('idempotency_key').orderBy('id').execute();
    expect(keys.map((k) => k.idempotency_key)).toEqual(['welcome:42', 'welcome:43', null]);
  });

  it('logs recipients masked at info level, never the full address', async () => {
    const { lines, log: logger } = capture();
    const mailer = outbox(suppressing('gone@example.test'), logger);
    await mailer.send({ to: ['Jane.Doe@example.test', 'gone@example.test'], subject: 'Hello', text: 'x', idempotencyKey: 'k1' });
    await mailer.send({ to: 'Jane.Doe@example.test', subject: 'Hello', text: 'x', idempotencyKey: 'k1' });
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      [30, 'suppressed recipients not mailed'],
      [30, 'mail sent'],
      [30, 'mail already sent under this idempotency key; not sent again'],
    ]);
    expect(lines[0]).toMatchObject({ skipped: ['g***@example.test'] });
    expect(lines[1]).toMatchObject({ to: ['J***@example.test'], subject: 'Hello', driver: 'outbox', idempotency_key: 'k1' });
    const text = JSON.stringify(lines).toLowerCase();
    expect(text).not.toContain('jane.doe@');
    expect(text).not.toContain('gone@');
  });

  it('maskEmail keeps the first character and the domain', () => {
    expect(maskEmail('jane@example.com')).toBe('j***@example.com');
    expect(maskEmail(' Jane <jane.doe@mail.example.com> ')).toBe('j***@mail.example.com');
    expect(maskEmail('a@b')).toBe('a***@b');
    expect(maskEmail('not an address')).toBe('***');
    expect(maskEmail('@example.com')).toBe('***');
  });

  it('reads the suppression list at send time (the plugin adds it after the mail step)', async () => {
    const services: { mailSuppression?: MailSuppression } = {};
    const mailer = outbox(services);
    Object.assign(services, suppressing('late@example.test'));
    expect((await mailer.send({ to: 'late@example.test', subject: 's', text: 'x' })).skipped).toEqual(['late@example.test']);
  });
});

describe('AppMailer | smtp driver', () => {
  const smtpMailer = (env: Record<string, string>, services: object = {}) =>
    new AppMailer({
      settings: loadSettings(mailSettings, {
        APP_ENV: 'production',
        MAIL_HOST: '127.0.0.1',
        MAIL_PORT: String(smtp.port),
        MAIL_FROM: 'App <app@example.test>',
        ...env,
      }),
      db,
      services,
      log,
    });

  it('delivers through MAIL_HOST:MAIL_PORT from MAIL_FROM to the deliverable recipients only; nothing is kept in the outbox', async () => {
    const mailer = smtpMailer({}, suppressing('gone@example.test'));
    try {
      const result = await mailer.send({
        to: ['ada@example.test', 'gone@example.test'],
        subject: 'Reset your password',
        text: 'Open https://app.test/reset-password?token=t1\n',
      });
      expect(result).toEqual({ delivered: ['ada@example.test'], skipped: ['gone@example.test'] });
    } finally {
      mailer.close();
    }
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]).toMatchObject({ from: 'app@example.test', to: ['ada@example.test'] });
    expect(smtp.received[0]!.data).toMatch(/^Subject: Reset your password$/m);
    expect(smtp.received[0]!.data).toContain('https://app.test/reset-password?token=t1');
    expect(await readOutbox(db)).toEqual([]);
  });

  it('sends a keyed mail once: the sent-mail ledger is checked before sending and written after; the Message-ID follows the key', async () => {
    const mailer = smtpMailer({});
    try {
      const first = await mailer.send({ to: 'ada@example.test', subject: 'Reset', text: 'link 1', idempotencyKey: 'reset:7' });
      const again = await mailer.send({ to: 'ada@example.test', subject: 'Reset', text: 'link 2', idempotencyKey: 'reset:7' });
      expect(first.alreadySent).toBeUndefined();
      expect(again).toEqual({ delivered: ['ada@example.test'], skipped: [], alreadySent: true });
      await mailer.send({ to: 'ada@example.test', subject: 'Reset', text: 'link 3', idempotencyKey: 'reset:8' });
    } finally {
      mailer.close();
    }
    expect(smtp.received.map((m) => /link \d/.exec(m.data)?.[0])).toEqual(['link 1', 'link 3']);
    const ledger = await db.selectFrom('mail_sent').select(['idempotency_key', 'message_id']).orderBy('idempotency_key').execute();
    expect(ledger.map((r) => r.idempotency_key)).toEqual(['reset:7', 'reset:8']);
    expect(ledger[0]!.message_id).toMatch(/^<[A-Za-z0-9_-]{32}@example\.test>$/);
    expect(smtp.received[0]!.data).toContain(`Message-ID: ${ledger[0]!.message_id}`);
  });

  it('a server that cannot be reached is BINDERY_MAIL_FAILED, naming the settings', async () => {
    const closed = await startFakeSmtp();
    const port = closed.port;
    await closed.close();
    const mailer = smtpMailer({ MAIL_PORT: String(port) });
    try {
      await expect(mailer.send({ to: 'ada@example.test', subject: 'x', text: 'x' })).rejects.toMatchObject({
        code: 'BINDERY_MAIL_FAILED',
        message: expect.stringContaining('MAIL_HOST'),
      });
    } finally {
      mailer.close();
    }
  });
});

describe('mail settings', () => {
  const load = (env: Record<string, string>) => loadSettings(mailSettings, env);
  const problems = (env: Record<string, string>) => {
    try {
      load(env);
      return [];
    } catch (error) {
      return (error as { problems: { message: string }[] }).problems.map((p) => p.message);
    }
  };

  it('defaults to the outbox in development and testing, to smtp in production', () => {
    expect(load({}).MAIL_DRIVER).toBe('outbox');
    expect(load({ APP_ENV: 'testing' }).MAIL_DRIVER).toBe('outbox');
    expect(load({ APP_ENV: 'production', MAIL_HOST: 'smtp.example.test', MAIL_FROM: 'a@example.test' })).toMatchObject({
      MAIL_DRIVER: 'smtp',
      MAIL_PORT: 587,
    });
    expect(load({ APP_ENV: 'production', MAIL_DRIVER: 'outbox' }).MAIL_DRIVER).toBe('outbox');
  });

  it('smtp needs MAIL_HOST and MAIL_FROM; a password needs a user; bad values are named', () => {
    const p = problems({ APP_ENV: 'production' });
    expect(p).toHaveLength(2);
    expect(p[0]).toMatch(/MAIL_DRIVER=smtp needs MAIL_HOST/);
    expect(p[1]).toMatch(/MAIL_DRIVER=smtp needs MAIL_FROM/);
    expect(problems({ MAIL_DRIVER: 'smtp', MAIL_HOST: 'h', MAIL_FROM: 'a@b.c', MAIL_PASSWORD: 'pw' })).toEqual([
      expect.stringMatching(/MAIL_PASSWORD is set without MAIL_USER/),
    ]);
    expect(problems({ MAIL_DRIVER: 'sendgrid', MAIL_PORT: '70000', MAIL_FROM: 'nobody' })).toEqual([
      expect.stringMatching(/^MAIL_DRIVER="sendgrid": expected one of smtp, outbox/),
      expect.stringMatching(/^MAIL_PORT="70000"/),
      expect.stringMatching(/^MAIL_FROM="nobody": expected an email address/),
    ]);
    expect(problems({ MAIL_FROM: 'Example App <app@example.test>' })).toEqual([]);
  });

  it('.env.example names each mail setting', async () => {
    const example = await readFile(new URL('../../../.env.example', import.meta.url), 'utf8');
    for (const name of Object.keys(mailSettings.specs)) expect(example).toMatch(new RegExp(`^(# )?${name}=`, 'm'));
  });

  it('linksOf finds every http(s) link of a text body', () => {
    expect(linksOf('a http://x.test/a?b=1, and (https://y.test/c).\nhttps://z.test/d')).toEqual([
      'http://x.test/a?b=1,',
      'https://y.test/c',
      'https://z.test/d',
    ]);
  });
});
