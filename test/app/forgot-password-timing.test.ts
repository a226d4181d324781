/**
 * POST /forgot-password does the same work for a known and an unknown
 * address (docs/auth.md "Password reset"): it queues one reset-mail job
 * either way and never looks the account up nor sends mail itself, so its
 * duration tells nobody who has an account. The worker sends the mail to
 * known accounts only. Timing measured over real HTTP, interleaved.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESET_MAIL_JOB } from '../../runtime/auth/links/reset-mail-job.js';
import { Client } from '../runtime/auth/support/client.js';
import { bootReferenceApp, makeAccount, newestMail, resetMailsSent, startWorker, type ReferenceApp } from './tokens-support.js';

const ROUNDS = 40;
let a: ReferenceApp;

beforeAll(async () => {
  a = await bootReferenceApp('forgottiming');
});
afterAll(async () => {
  await a?.close();
});

const queued = async (): Promise<number> =>
  (await sql<{ n: number }>`select count(*)::int as n from graphile_worker.jobs where task_identifier = ${RESET_MAIL_JOB}`.execute(a.db))
    .rows[0]!.n;

function median(values: number[]): number {
  const s = [...values].sort((x, y) => x - y);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

describe('POST /forgot-password | the same work for every address', () => {
  it('queues one job for a known and one for an unknown address, and mails nothing during the request; the worker mails the known one only', async () => {
    const user = await makeAccount(a);
    const c = new Client(a.url);
    await c.page('/forgot-password');
    expect((await c.form('/forgot-password', { email: user.email })).status).toBe(303);
    expect(await queued()).toBe(1);
    expect((await c.form('/forgot-password', { email: 'nobody-here@example.test' })).status).toBe(303);
    expect(await queued()).toBe(2);
    expect(await newestMail(a, user.email)).toBeUndefined();

    await startWorker(a);
    await resetMailsSent(a);
    expect((await newestMail(a, user.email))?.subject).toMatch(/Reset your .* password/);
    expect(await newestMail(a, 'nobody-here@example.test')).toBeUndefined();
  });

  it('the medians of the answer times for known and unknown addresses are close (0.6–1.6; a known address took 2–3× as long when the request mailed itself)', async () => {
    const stamp = Date.now();
    const users = await Promise.all(
      Array.from({ length: ROUNDS + 3 }, (_, i) => makeAccount(a, { email: `known${i}-${stamp}@example.test` })),
    );
    // One email address and one client address (127.0.1.x) per request: neither limit of 5 a minute answers early.
    let n = 0;
    const time = async (email: string): Promise<number> => {
      const c = new Client(a.url, `127.0.1.${++n}`);
      const start = process.hrtime.bigint();
      const res = await c.json('POST', '/forgot-password', { email }, { accept: 'text/html' });
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      expect(res.status).toBe(303);
      return ms;
    };
    for (let i = 0; i < 3; i++) {
      await time(users[ROUNDS + i]!.email);
      await time(`warmup${i}@example.test`);
    }
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      if (i % 2 === 0) {
        known.push(await time(users[i]!.email));
        unknown.push(await time(`nobody${i}@example.test`));
      } else {
        unknown.push(await time(`nobody${i}@example.test`));
        known.push(await time(users[i]!.email));
      }
    }
    const ratio = median(known) / median(unknown);
    const figures = `known ${median(known).toFixed(2)} ms, unknown ${median(unknown).toFixed(2)} ms`;
    // Wide enough for a machine busy with other tests; the work itself is the same (checked above).
    expect(ratio, figures).toBeGreaterThan(0.6);
    expect(ratio, figures).toBeLessThan(1.6);
    await resetMailsSent(a);
  });
});
