/**
 * Mail sent by a job carries an idempotency key derived from the job and the
 * mail (docs/mail.md "Idempotency keys"), with no key in the job's code: a
 * job that fails after sending and runs again does not mail twice, while
 * distinct mails of one run — and equal mails of distinct jobs — all go out.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, defineApp, type TestApp } from '../../../runtime/app/index.js';
import type { Services } from '../../../runtime/http/context.js';
import { defineJob, jobs, startWorker, type Queue } from '../../../runtime/jobs/index.js';
import { mail, readOutbox, type MailResult } from '../../../runtime/mail/index.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { waitFor } from '../jobs/wait-for.js';

const results: { marker: string; attempt: number; key: string; sent: MailResult[] }[] = [];

/** Sends its mails, then fails its first attempt: the retry sends the same mails again. */
const mailJob = defineJob<{ marker: string; to: string[] }>({
  name: 'test:mail',
  maxAttempts: 2,
  async handle({ marker, to }, ctx) {
    const sent: MailResult[] = [];
    for (const address of to)
      sent.push(await ctx.services.mailer!.send({ to: address, subject: `Hello ${marker}`, text: `attempt ${ctx.job.attempt}` }));
    results.push({ marker, attempt: ctx.job.attempt, key: ctx.job.idempotencyKey, sent });
    if (ctx.job.attempt === 1) throw new Error('failed after sending');
  },
});

const app = defineApp({
  name: 'mail_in_job_test',
  root: fileURLToPath(new URL('.', import.meta.url)),
  routes: [],
  handlers: {},
  migrations: [],
  setup: [mail(), jobs({ jobs: [mailJob] })],
});

let database: TestDatabase;
let t: TestApp;

beforeAll(async () => {
  database = await createTestDatabase('mail_in_job');
  t = await createTestApp(app, { databaseUrl: database.url, env: { JOBS_POLL_INTERVAL: '200ms' } });
  await startWorker(t.running.services);
});
afterAll(async () => {
  await t?.close();
  await database?.drop();
});
beforeEach(() => {
  results.length = 0;
});

describe('mail in a job | the derived idempotency key', () => {
  it('a job that runs again after sending does not send again; each mail of a run, and each job, is keyed apart', async () => {
    const queue = t.running.services.queue as Queue;
    // Two mails to one address in one run, one to another; a second job sends the same mail as the first.
    const one = await queue.add(mailJob, { marker: 'one', to: ['ada@example.test', 'ada@example.test', 'bob@example.test'] });
    await queue.add(mailJob, { marker: 'one', to: ['ada@example.test'] });
    await waitFor(() => results.filter((r) => r.attempt === 2).length === 2, 'both jobs to run twice', 15_000);
    const first = results.filter((r) => r.key === `graphile-worker:${one.id}:0`);
    expect(first.map((r) => r.attempt)).toEqual([1, 2]);
    expect(first[0]!.sent.map((s) => s.alreadySent ?? false)).toEqual([false, false, false]);
    expect(first[1]!.sent.map((s) => s.alreadySent ?? false)).toEqual([true, true, true]);
    const kept = await readOutbox(t.db, { limit: 100 });
    // 3 mails of the first job and 1 of the second, each kept once, all from the first attempts.
    expect(kept.map((m) => [m.to.join(), m.text]).sort()).toEqual([
      ['ada@example.test', 'attempt 1'],
      ['ada@example.test', 'attempt 1'],
      ['ada@example.test', 'attempt 1'],
      ['bob@example.test', 'attempt 1'],
    ]);
    const keys = (await t.db.selectFrom('mail_outbox').select('idempotency_key').execute()).map((r) => r.idempotency_key as string);
    expect(new Set(keys).size).toBe(4);
    for (const key of keys) expect(key).toMatch(/^graphile-worker:\d+:0:mail:[A-Za-z0-9_-]{22}:[12]$/);
  }, 30_000);

  it('a mail sent outside a job carries no key and is sent every time', async () => {
    await t.db.deleteFrom('mail_outbox').execute();
    const mailer = (t.running.services as unknown as Services).mailer!;
    await mailer.send({ to: 'ada@example.test', subject: 'Same', text: 'x' });
    await mailer.send({ to: 'ada@example.test', subject: 'Same', text: 'x' });
    const keys = await t.db.selectFrom('mail_outbox').select('idempotency_key').execute();
    expect(keys).toEqual([{ idempotency_key: null }, { idempotency_key: null }]);
  });
});
