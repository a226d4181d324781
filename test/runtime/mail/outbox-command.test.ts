/**
 * `bindery mail:outbox [--to <address>] [--limit <n>] [--json]` as a
 * process: the kept messages newest first with recipients,
 * subject, time and the text body with its links.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../runtime/app/index.js';
import type { Mailer } from '../../../runtime/mail/index.js';
import { runCli } from '../cli/run-cli.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import mailApp from './fixtures/mail-app.js';

const cwd = fileURLToPath(new URL('./fixtures/', import.meta.url));
const APP_KEY = `base64:${Buffer.alloc(32, 7).toString('base64')}`;

let database: TestDatabase;
let t: TestApp;

const outbox = (args: string[] = [], env: Record<string, string> = {}) =>
  runCli(['mail:outbox', ...args, '--app', 'mail-app.ts'], {
    cwd,
    env: { DATABASE_URL: database.url, APP_KEY, LOG_LEVEL: 'silent', ...env },
  });

beforeAll(async () => {
  database = await createTestDatabase('mail_cli');
  t = await createTestApp(mailApp, { databaseUrl: database.url });
});
afterAll(async () => {
  await t?.close();
  await database?.drop();
});

describe('bindery mail:outbox', () => {
  it('says so when the outbox is empty ([] with --json)', async () => {
    expect(await outbox()).toMatchObject({ code: 0, stdout: 'The outbox is empty.\n', stderr: '' });
    expect(await outbox(['--json'])).toMatchObject({ code: 0, stdout: '[]\n' });
    expect(await outbox(['--to', 'x@example.test'])).toMatchObject({ code: 0, stdout: 'No mail to x@example.test in the outbox.\n' });
    expect(await outbox([], { MAIL_DRIVER: 'smtp', MAIL_HOST: 'smtp.example.test', MAIL_FROM: 'app@example.test' })).toMatchObject({
      code: 0,
      stdout: 'The outbox is empty.\nMAIL_DRIVER is smtp: mail is sent through MAIL_HOST, not kept here.\n',
    });
  });

  it('prints the messages newest first with to, subject, time and the text body with its links; --to and --limit filter', async () => {
    const mailer = t.running.services.mailer as Mailer;
    await mailer.send({
      to: 'ada@example.test',
      subject: 'Verify your email address',
      text: 'Open this link:\n\nhttps://app.test/verify-email?token=AAA\n',
    });
    await mailer.send({
      to: 'bob@example.test',
      subject: 'Reset your password',
      text: 'Open this link:\n\nhttps://app.test/reset-password?token=BBB\n',
    });

    const all = await outbox();
    expect(all.code).toBe(0);
    expect(all.stderr).toBe('');
    const blocks = all.stdout.split(/^─+$/m).filter((b) => b.trim() !== '');
    expect(blocks).toHaveLength(2);
    expect(blocks[0]).toMatch(
      /^\n#\d+ {2}\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\nTo: {6}bob@example\.test\nFrom: {4}no-reply@localhost\nSubject: Reset your password\n\nOpen this link:\n\nhttps:\/\/app\.test\/reset-password\?token=BBB\n/,
    );
    expect(blocks[1]).toContain('Subject: Verify your email address');
    expect(blocks[1]).toContain('https://app.test/verify-email?token=AAA');

    const ada = await outbox(['--to', 'ADA@example.test']);
    expect(ada.stdout).toContain('To:      ada@example.test');
    expect(ada.stdout).not.toContain('bob@example.test');
    const newest = await outbox(['--limit', '1']);
    expect(newest.stdout).toContain('Reset your password');
    expect(newest.stdout).not.toContain('Verify your email address');
  });

  it('--json prints an array a script can follow a link from', async () => {
    const res = await outbox(['--json', '--to', 'ada@example.test']);
    expect(res.code).toBe(0);
    const messages = JSON.parse(res.stdout);
    expect(messages).toEqual([
      {
        id: expect.any(Number),
        to: ['ada@example.test'],
        from: 'no-reply@localhost',
        subject: 'Verify your email address',
        sent_at: expect.stringMatching(/Z$/),
        text: expect.stringContaining('token=AAA'),
        html: null,
        links: ['https://app.test/verify-email?token=AAA'],
      },
    ]);
  });

  it('a bad --limit is a usage error (exit 2)', async () => {
    const res = await outbox(['--limit', 'many']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--limit must be a whole number from 1 to 10000');
  });
});
