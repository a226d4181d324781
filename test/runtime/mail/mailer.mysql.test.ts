/**
 * The mailer's tables on MariaDB (docs/mail.md "The outbox", "Idempotency
 * keys"): the `mail` migration set's MySQL files applied by the runtime
 * migrator; the outbox keeps each message exactly (4-byte UTF-8, bodies over
 * 64 KB), filters by recipient in any case and keeps one message per key;
 * the SMTP driver's sent-mail ledger sends a keyed mail once and prunes old keys.
 */
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../runtime/app/logger.js';
import { loadSettings } from '../../../runtime/config/load-settings.js';
import { connectDatabase } from '../../../runtime/db/index.js';
import { createMigrator } from '../../../runtime/db/migrator/index.js';
import { AppMailer, readOutbox } from '../../../runtime/mail/index.js';
import { mailSettings } from '../../../runtime/mail/settings.js';
import { MAIL_MIGRATIONS_DIR } from '../../../runtime/mail/mail-step.js';
import { mysqlPruneLedger } from '../../../runtime/mail/mail-ledger.mysql.js';
import { createTestMariaDatabase, type TestDatabase } from '../../support/database.js';
import { startFakeSmtp, type FakeSmtp } from './fake-smtp.js';

let database: TestDatabase;
let db: Kysely<any>;
let closeDb: () => Promise<void>;
let smtp: FakeSmtp;
const log = createLogger('silent', 'mail_maria');

const outbox = () => new AppMailer({ settings: loadSettings(mailSettings, { APP_ENV: 'testing' }), db, services: {}, log });

beforeAll(async () => {
  database = await createTestMariaDatabase('mailmaria');
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

describe('Mail on MariaDB | the outbox', () => {
  it('the migrator applied the mail set from its mysql/ folder', async () => {
    const applied = await db.selectFrom('bindery_migrations').select(['source', 'name']).where('source', '=', 'mail').execute();
    expect(applied).toEqual([
      { source: 'mail', name: '0001_create_mail_outbox.sql' },
      { source: 'mail', name: '0002_mail_idempotency_keys.sql' },
    ]);
  });

  it('keeps a message exactly: recipients, subject and a text body over 64 KB with 4-byte UTF-8', async () => {
    const text = `${'Grüße 🎉 '.repeat(9_000)}https://app.test/verify?token=x_1\n`;
    await outbox().send({ to: ['Ada@Example.test', 'bob@example.test'], subject: 'Hi 👋 there', text, html: '<p>😀</p>' });
    const [kept] = await readOutbox(db);
    expect(kept).toMatchObject({ to: ['Ada@Example.test', 'bob@example.test'], subject: 'Hi 👋 there', html: '<p>😀</p>' });
    expect(kept!.text.length).toBeGreaterThan(65_536);
    expect(kept!.text.trimEnd()).toBe(text.trimEnd());
    expect(kept!.links).toEqual(['https://app.test/verify?token=x_1']);
    expect(kept!.sentAt).toBeInstanceOf(Date);
    expect(Math.abs(kept!.sentAt.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it('reads newest first, filters by recipient in any case (wildcard characters match only themselves) and limits', async () => {
    const mailer = outbox();
    await mailer.send({ to: 'a_b@example.test', subject: 'one', text: 'x' });
    await mailer.send({ to: ['b@example.test', 'A_B@example.test'], subject: 'two', text: 'x' });
    await mailer.send({ to: 'axb@example.test', subject: 'three', text: 'x' });
    expect((await readOutbox(db)).map((m) => m.subject)).toEqual(['three', 'two', 'one']);
    expect((await readOutbox(db, { to: 'A_b@EXAMPLE.test' })).map((m) => m.subject)).toEqual(['two', 'one']);
    expect((await readOutbox(db, { to: 'a%@example.test' })).map((m) => m.subject)).toEqual([]);
    expect((await readOutbox(db, { limit: 1 })).map((m) => m.subject)).toEqual(['three']);
  });

  it('keeps one message per idempotency key; keys differing in case are different keys', async () => {
    const mailer = outbox();
    const first = await mailer.send({ to: 'ada@example.test', subject: 'Welcome', text: 'one', idempotencyKey: 'welcome:a' });
    const again = await mailer.send({ to: 'ada@example.test', subject: 'Welcome', text: 'two', idempotencyKey: 'welcome:a' });
    await mailer.send({ to: 'ada@example.test', subject: 'Welcome', text: 'upper', idempotencyKey: 'welcome:A' });
    expect(first.alreadySent).toBeUndefined();
    expect(again.alreadySent).toBe(true);
    const rows = await db.selectFrom('mail_outbox').select(['idempotency_key', 'text_body']).orderBy('id').execute();
    expect(rows.map((r) => [r.idempotency_key, r.text_body.trim()])).toEqual([
      ['welcome:a', 'one'],
      ['welcome:A', 'upper'],
    ]);
  });
});

describe('Mail on MariaDB | the sent-mail ledger', () => {
  const smtpMailer = () =>
    new AppMailer({
      settings: loadSettings(mailSettings, {
        APP_ENV: 'production',
        MAIL_HOST: '127.0.0.1',
        MAIL_PORT: String(smtp.port),
        MAIL_FROM: 'App <app@example.test>',
      }),
      db,
      services: {},
      log,
    });

  it('sends a keyed mail once; the ledger holds the key and the Message-ID', async () => {
    const mailer = smtpMailer();
    try {
      await mailer.send({ to: 'ada@example.test', subject: 'Reset', text: 'link 1', idempotencyKey: 'reset:🔑' });
      const again = await mailer.send({ to: 'ada@example.test', subject: 'Reset', text: 'link 2', idempotencyKey: 'reset:🔑' });
      expect(again.alreadySent).toBe(true);
      await mailer.send({ to: 'ada@example.test', subject: 'Reset', text: 'link 3', idempotencyKey: 'reset:8' });
    } finally {
      mailer.close();
    }
    expect(smtp.received.map((m) => /link \d/.exec(m.data)?.[0])).toEqual(['link 1', 'link 3']);
    const ledger = await db.selectFrom('mail_sent').select(['idempotency_key', 'message_id']).orderBy('idempotency_key').execute();
    expect(ledger.map((r) => r.idempotency_key).sort()).toEqual(['reset:8', 'reset:🔑'].sort());
    expect(ledger[0]!.message_id).toMatch(/^<[A-Za-z0-9_-]{32}@example\.test>$/);
  });

  it('pruning deletes keys older than the retention, measured in UTC', async () => {
    await db.insertInto('mail_sent').values({ idempotency_key: 'old', message_id: '<o@x>' }).execute();
    await db.insertInto('mail_sent').values({ idempotency_key: 'new', message_id: '<n@x>' }).execute();
    await sql`update mail_sent set sent_at = utc_timestamp(6) - interval 31 day where idempotency_key = 'old'`.execute(db);
    await mysqlPruneLedger(db, 30);
    expect((await db.selectFrom('mail_sent').select('idempotency_key').execute()).map((r) => r.idempotency_key)).toEqual(['new']);
  });
});
