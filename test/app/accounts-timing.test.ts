/**
 * An unknown account and a wrong password take about as long (docs/spec.md 5.1
 * rule 6): both look the login up and check a password against an argon2id
 * hash of the same cost (a dummy one for the unknown account). Measured over
 * real HTTP, interleaved so load on the machine hits both alike; the ratio
 * of the medians must stay within 0.75–1.33.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../runtime/auth/support/client.js';
import { bootAccounts, makeUser, type AccountsApp } from './accounts-support.js';

const ROUNDS = 40;
let a: AccountsApp;

beforeAll(async () => {
  // Throttling would answer early (and fast) after 5 attempts: lift it for the measurement.
  a = await bootAccounts('accounttiming', { AUTH_THROTTLE: '1000', AUTH_THROTTLE_IP: '1000' });
});
afterAll(async () => {
  await a?.close();
});

function median(values: number[]): number {
  const s = [...values].sort((x, y) => x - y);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

describe('Login timing | unknown account vs wrong password', () => {
  it('the medians of both failures are within a third of each other', async () => {
    const user = await makeUser(a, { password: 'correct horse battery' });
    const c = new Client(a.url);
    await c.page('/login');
    const time = async (email: string): Promise<number> => {
      const start = process.hrtime.bigint();
      const res = await c.json('POST', '/login', { email, password: 'not the password' });
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      expect(res.status).toBe(422);
      expect(res.json().errors).toEqual({ email: 'These credentials do not match our records.' });
      return ms;
    };
    for (let i = 0; i < 3; i++) {
      await time(user.email);
      await time(`warmup${i}@example.test`);
    }
    const unknown: number[] = [];
    const wrong: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      // Alternate which goes first, so drift in load favours neither.
      if (i % 2 === 0) {
        unknown.push(await time(`nobody${i}@example.test`));
        wrong.push(await time(user.email));
      } else {
        wrong.push(await time(user.email));
        unknown.push(await time(`nobody${i}@example.test`));
      }
    }
    const ratio = median(unknown) / median(wrong);
    // Both include an argon2id check (about 20 ms here): an unknown account answered without one would give a ratio far below 0.75.
    expect(median(wrong)).toBeGreaterThan(5);
    expect(ratio, `unknown ${median(unknown).toFixed(1)} ms, wrong ${median(wrong).toFixed(1)} ms`).toBeGreaterThan(0.75);
    expect(ratio, `unknown ${median(unknown).toFixed(1)} ms, wrong ${median(wrong).toFixed(1)} ms`).toBeLessThan(1.33);
  });
});
