/**
 * Route rate limits declared in the YAML (docs/http.md "Rate limits"), over
 * real HTTP: `POST /forgot-password` and `POST /register` allow 5 a minute
 * per client address, counted in the database cache — so two instances of
 * the app on one database share the count.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import app from '../../app/main.js';
import { createTestApp, type TestApp } from '../../runtime/app/index.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { referenceAppEnv } from '../support/reference-app-env.js';
import { Client } from '../runtime/auth/support/client.js';

let database: TestDatabase;
let one: TestApp<any>;
let two: TestApp<any>;

beforeAll(async () => {
  database = await createTestDatabase('rate_limits');
  one = await createTestApp(app, { databaseUrl: database.url, env: { ...referenceAppEnv } });
  two = await createTestApp(app, { databaseUrl: database.url, env: { ...referenceAppEnv }, migrate: false });
});
afterAll(async () => {
  await two?.close();
  await one?.close();
  await database?.drop();
});

describe('rateLimit | counted in the cache, shared by the instances', () => {
  it('5 requests spread over two instances, then the 6th (on either) is 429 with Retry-After and the X-RateLimit trio', async () => {
    const seen: string[] = [];
    for (let i = 0; i < 5; i++) {
      const base = i % 2 === 0 ? one.url : two.url;
      const r = await new Client(base, '127.0.8.1').json('POST', '/forgot-password', { email: `shared${i}@example.test` });
      expect(r.status).toBe(303);
      expect(r.headers['x-ratelimit-limit']).toBe('5');
      seen.push(`${r.headers['x-ratelimit-reset'] === undefined ? 'no reset' : 'reset'}`);
    }
    expect(seen).toEqual(Array(5).fill('reset'));
    for (const base of [two.url, one.url]) {
      const r = await new Client(base, '127.0.8.1').json('POST', '/forgot-password', { email: 'shared-last@example.test' });
      expect(r.status).toBe(429);
      expect(r.headers['content-type']).toMatch(/^application\/problem\+json/);
      const retryAfter = Number(r.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(r.headers['x-ratelimit-remaining']).toBe('0');
      expect(Number(r.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000);
      expect(r.json()).toMatchObject({ status: 429, title: 'Too Many Requests' });
    }
    // Another client address keeps its own count.
    expect((await new Client(one.url, '127.0.8.2').json('POST', '/forgot-password', { email: 'other@example.test' })).status).toBe(303);
  });

  it('routes without a limit carry no X-RateLimit headers', async () => {
    const r = await new Client(one.url).send('GET', '/notes', { headers: { accept: 'application/json' } });
    expect(r.status).toBe(200);
    expect(r.headers['x-ratelimit-limit']).toBeUndefined();
  });
});
