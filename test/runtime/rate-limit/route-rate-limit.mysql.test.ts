/**
 * Rate limits counted in the database cache on MariaDB (docs/http.md "Rate
 * limits"): the `cache` set's MySQL file applied by the runtime migrator, a
 * route limited over real HTTP (the third request 429 with its headers),
 * `hitRateLimit` counting exactly under concurrency, keys byte-exact, and
 * the window's end.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CACHE_MIGRATIONS_DIR } from '../../../runtime/cache/cache-step.js';
import { DatabaseCache } from '../../../runtime/cache/drivers/database-cache.js';
import { connectDatabase, type Database } from '../../../runtime/db/index.js';
import { createMigrator } from '../../../runtime/db/migrator/index.js';
import { hitRateLimit } from '../../../runtime/rate-limit/index.js';
import type { RouteDefinition } from '../../../runtime/routing/route-table.js';
import { createTestMariaDatabase, type TestDatabase } from '../../support/database.js';
import { route } from '../http/support/routes.js';
import { call, closeAll, startServer } from '../http/support/server.js';

let testDb: TestDatabase;
let database: Database;
let cache: DatabaseCache;
let clock = Date.UTC(2026, 0, 1);
const now = () => clock;

beforeAll(async () => {
  testDb = await createTestMariaDatabase('ratelimitmaria');
  database = await connectDatabase({ url: testDb.url, max: 8 });
  await createMigrator(database, [{ source: 'cache', dir: CACHE_MIGRATIONS_DIR }]).migrate();
  cache = new DatabaseCache(database.db, now);
});
afterAll(async () => {
  await closeAll();
  await database?.close();
  await testDb?.drop();
});

describe('Rate limits on MariaDB', () => {
  it('a route limited to 2 a minute by address answers the third request 429 with Retry-After', async () => {
    const limited: RouteDefinition = {
      ...route({ name: 'limited', path: '/limited' }),
      rateLimit: { limit: 2, windowMs: 60_000, by: 'ip' },
    };
    const s = await startServer({
      routes: [limited],
      handlers: { limited: () => ({ ok: true }) },
      services: { cache: new DatabaseCache(database.db) } as never,
    });
    const responses = [];
    for (let i = 0; i < 3; i++) responses.push(await call(`${s.url}/limited`));
    expect(responses.map((r) => r.status)).toEqual([200, 200, 429]);
    expect(responses[1]!.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(responses[2]!.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('counts every concurrent hit: exactly the limit is allowed', async () => {
    const rule = { name: 'forgot-password', limit: 5, windowMs: 60_000 };
    const states = await Promise.all(Array.from({ length: 20 }, () => hitRateLimit(cache, rule, 'ada@example.com')));
    expect(states.filter((s) => s.allowed)).toHaveLength(5);
    expect(states.map((s) => s.remaining).sort((a, b) => a - b)).toEqual([...Array(16).fill(0), 1, 2, 3, 4]);
  });

  it('keys differing in case are counted apart; a new window starts after the end of the old', async () => {
    const rule = { name: 'login', limit: 1, windowMs: 10_000 };
    expect((await hitRateLimit(cache, rule, 'Key')).allowed).toBe(true);
    expect((await hitRateLimit(cache, rule, 'Key')).allowed).toBe(false);
    expect((await hitRateLimit(cache, rule, 'key')).allowed).toBe(true);
    const refused = await hitRateLimit(cache, rule, 'Key');
    expect(refused.resetAt).toBe(clock + 10_000);
    clock += 10_000;
    expect(await hitRateLimit(cache, rule, 'Key')).toEqual({ limit: 1, remaining: 0, resetAt: clock + 10_000, allowed: true });
  });
});
