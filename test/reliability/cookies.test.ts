/**
 * Mutated session and remember-me cookies (docs/reliability.md): a real
 * signed-in session cookie and a real remember-me cookie, changed by
 * fast-check (a character flipped, cut, extended, re-encoded, swapped with
 * the other cookie, percent-encoded junk), are never accepted — the
 * signed-in page answers 401 — and never make the server fail.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootReferenceApp, makeAccount, signIn, type ReferenceApp } from '../app/tokens-support.js';
import { httpClient } from './support/http-client.js';
import { size } from './support/scale.js';

let a: ReferenceApp;
let client: ReturnType<typeof httpClient>;
let sessionName: string;
let sessionValue: string;
let rememberName: string;
let rememberValue: string;

beforeAll(async () => {
  a = await bootReferenceApp('cookies');
  client = httpClient(a.url);
  const user = await makeAccount(a, { email: 'cookie@example.test', verified: true });
  const browser = await signIn(a, user, undefined, true);
  const entries = [...browser.cookies];
  [sessionName, sessionValue] = entries.find(([n]) => n.includes('session'))!;
  [rememberName, rememberValue] = entries.find(([n]) => n.includes('remember'))!;
});
afterAll(async () => {
  client?.close();
  await a?.close();
});

const PRINTABLE = Array.from({ length: 0x7e - 0x21 + 1 }, (_, i) => String.fromCharCode(0x21 + i)).filter(
  (c) => c !== ';' && c !== ',' && c !== '"' && c !== '\\',
);
const printable = fc.constantFrom(...PRINTABLE);

/** One mutation of `value` (the cookie value as the browser holds it). */
function mutated(value: string): fc.Arbitrary<string> {
  const at = fc.nat({ max: Math.max(0, value.length - 1) });
  return fc
    .oneof(
      fc.tuple(at, printable).map(([i, c]) => value.slice(0, i) + c + value.slice(i + 1)), // flip one character
      fc
        .tuple(at, printable)
        .filter(([i, c]) => value[i] !== c)
        .map(([i, c]) => value.slice(0, i) + c + value.slice(i + 1)),
      at.map((i) => value.slice(0, i)), // cut
      fc.string({ unit: printable, minLength: 1, maxLength: 40 }).map((s) => value + s), // extend
      fc.string({ unit: printable, minLength: 1, maxLength: 40 }).map((s) => s + value),
      fc.tuple(at, at).map(([i, j]) => value.slice(0, Math.min(i, j)) + value.slice(Math.max(i, j))), // remove a range
      fc.constantFrom(
        '',
        '%00',
        'a%00b',
        '%ZZ',
        '%',
        'null',
        '[]',
        '{}',
        'x'.repeat(4000),
        Buffer.from('{"user":1}').toString('base64url'),
      ),
      at.map((i) => value.slice(0, i) + '%00' + value.slice(i)),
      fc.constant(value.split('').reverse().join('')),
      fc.constant(Buffer.from(value).toString('base64url')), // re-encoded
      fc.uint8Array({ minLength: 1, maxLength: 120 }).map((b) => Buffer.from(b).toString('base64url')), // random sealed-looking bytes
    )
    .filter((v) => v !== value && !sameBytes(v, value));
}

/** A base64url text decoding to the same bytes (its last character's spare bits changed): the same cookie, not a forgery. */
function sameBytes(v: string, value: string): boolean {
  return (
    /^[A-Za-z0-9_-]*$/.test(v) && /^[A-Za-z0-9_-]*$/.test(value) && Buffer.from(v, 'base64url').equals(Buffer.from(value, 'base64url'))
  );
}

describe('Cookies | mutated session and remember-me cookies are never accepted', () => {
  it('the real cookies are accepted (the baseline the mutations start from)', async () => {
    const session = await client.send({
      method: 'GET',
      path: '/dashboard',
      headers: { accept: 'application/json', cookie: `${sessionName}=${sessionValue}` },
    });
    expect(session.status).toBe(200);
    const remember = await client.send({
      method: 'GET',
      path: '/dashboard',
      headers: { accept: 'application/json', cookie: `${rememberName}=${rememberValue}` },
    });
    expect(remember.status).toBe(200);
  });

  it('mutations of either cookie (or both) answer 401, never 2xx or 5xx', async () => {
    const runs = size(500, 10_000);
    const statuses = new Map<number, number>();
    const arb = fc.oneof(
      mutated(sessionValue).map((v) => `${sessionName}=${v}`),
      mutated(rememberValue).map((v) => `${rememberName}=${v}`),
      fc.tuple(mutated(sessionValue), mutated(rememberValue)).map(([s, r]) => `${sessionName}=${s}; ${rememberName}=${r}`),
      fc.constant(`${sessionName}=${rememberValue}`), // one cookie's value under the other's name
      fc.constant(`${rememberName}=${sessionValue}`),
    );
    await fc.assert(
      fc.asyncProperty(arb, async (cookie) => {
        const res = await client.send({ method: 'GET', path: '/dashboard', headers: { accept: 'application/json', cookie } });
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        expect(res.status, `${cookie}: ${res.error ?? res.body.slice(0, 200)}`).toBe(401);
      }),
      { numRuns: runs, endOnFailure: true },
    );
    console.log(`cookies: ${runs} mutated cookies; statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
  }, 600_000);
});
