/**
 * The cache (docs/auth.md "The cache"): both drivers behave alike — values
 * with a time to live, fixed-window counters — and the database driver
 * counts atomically across concurrent increments (real PostgreSQL, through
 * the `cache()` setup step and its migration set).
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, defineApp, type TestApp } from '../../../runtime/app/index.js';
import { cache, type Cache } from '../../../runtime/cache/index.js';
import { MemoryCache } from '../../../runtime/cache/drivers/memory-cache.js';
import { DatabaseCache } from '../../../runtime/cache/drivers/database-cache.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';

let clock = 1_700_000_000_000;
const now = () => clock;
const app = defineApp({
  name: 'cachetest',
  root: fileURLToPath(new URL('.', import.meta.url)),
  routes: [],
  handlers: {},
  migrations: [],
  setup: [cache({ now })],
});

let database: TestDatabase;
let t: TestApp;

beforeAll(async () => {
  database = await createTestDatabase('cache');
  t = await createTestApp(app, { databaseUrl: database.url });
});
afterAll(async () => {
  await t?.close();
  await database?.drop();
});

const drivers: Array<[string, () => Cache & { prune(): number | Promise<number> }]> = [
  ['memory', () => new MemoryCache(now)],
  ['database', () => new DatabaseCache(t.db, now)],
];

describe.each(drivers)('Cache | %s driver', (name, make) => {
  it('stores JSON values until their time to live has passed', async () => {
    const c = make();
    const key = `${name}:value`;
    expect(await c.get(key)).toBeUndefined();
    await c.put(key, { a: [1, 'two', null], b: true }, 1000);
    expect(await c.get(key)).toEqual({ a: [1, 'two', null], b: true });
    await c.put(key, 'replaced', 1000);
    expect(await c.get(key)).toBe('replaced');
    clock += 999;
    expect(await c.get(key)).toBe('replaced');
    clock += 1;
    expect(await c.get(key)).toBeUndefined();
    await c.put(key, 0, 1000);
    expect(await c.get(key)).toBe(0);
    await c.forget(key);
    expect(await c.get(key)).toBeUndefined();
  });

  it('refuses values JSON cannot hold', async () => {
    const c = make();
    await expect(c.put(`${name}:bad`, undefined, 1000)).rejects.toThrow(TypeError);
    await expect(c.put(`${name}:bad`, 1n, 1000)).rejects.toThrow(/must be JSON/);
  });

  it('counts in a fixed window that starts with the first increment and does not slide', async () => {
    const c = make();
    const key = `${name}:counter`;
    expect(await c.peek(key)).toEqual({ count: 0, resetAt: clock });
    const start = clock;
    expect(await c.increment(key, 60_000)).toEqual({ count: 1, resetAt: start + 60_000 });
    clock += 30_000;
    expect(await c.increment(key, 60_000)).toEqual({ count: 2, resetAt: start + 60_000 });
    expect(await c.peek(key)).toEqual({ count: 2, resetAt: start + 60_000 });
    clock += 30_000;
    expect(await c.peek(key)).toEqual({ count: 0, resetAt: clock });
    expect(await c.increment(key, 60_000)).toEqual({ count: 1, resetAt: clock + 60_000 });
    await c.forget(key);
    expect((await c.peek(key)).count).toBe(0);
  });

  it('a counter over a plain value starts again at 1', async () => {
    const c = make();
    await c.put(`${name}:mixed`, 'text', 60_000);
    expect((await c.increment(`${name}:mixed`, 60_000)).count).toBe(1);
    expect((await c.increment(`${name}:mixed`, 60_000)).count).toBe(2);
  });

  it('prune deletes expired entries only', async () => {
    const c = make();
    await c.put(`${name}:short`, 1, 10);
    await c.put(`${name}:long`, 2, 1_000_000);
    clock += 10;
    expect(await c.prune()).toBeGreaterThanOrEqual(1);
    expect(await c.get(`${name}:long`)).toBe(2);
  });
});

describe('Cache | database driver', () => {
  it('concurrent increments from separate connections lose no count', async () => {
    const a = new DatabaseCache(t.db, now);
    const results = await Promise.all(Array.from({ length: 40 }, () => a.increment('database:race', 60_000)));
    expect(results.map((r) => r.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect((await a.peek('database:race')).count).toBe(40);
  });

  it('the step sets ctx.services.cache with the database driver by default, over the table of the cache migration set', async () => {
    expect(t.running.services.cache).toBeInstanceOf(DatabaseCache);
    const applied = await t.db
      .selectFrom('bindery_migrations' as any)
      .select(['source', 'name'])
      .execute();
    expect(applied).toEqual([{ source: 'cache', name: '0001_create_bindery_cache.sql' }]);
  });

  it('CACHE_DRIVER=memory gives the memory driver', async () => {
    const other = await createTestDatabase('cachemem');
    try {
      const m = await createTestApp(app, { databaseUrl: other.url, env: { CACHE_DRIVER: 'memory' }, migrate: false });
      expect(m.running.services.cache).toBeInstanceOf(MemoryCache);
      await m.close();
    } finally {
      await other.drop();
    }
  });

  it('without its table the boot stops with BINDERY_CACHE_UNAVAILABLE, saying to migrate', async () => {
    const other = await createTestDatabase('cachenotable');
    try {
      await expect(createTestApp(app, { databaseUrl: other.url, migrate: false })).rejects.toMatchObject({
        code: 'BINDERY_CACHE_UNAVAILABLE',
        message: expect.stringContaining('bindery migrate'),
      });
    } finally {
      await other.drop();
    }
  });

  it('an unknown CACHE_DRIVER stops the boot naming the setting and the known drivers', async () => {
    await expect(createTestApp(app, { databaseUrl: database.url, env: { CACHE_DRIVER: 'redis' } })).rejects.toThrow(
      'CACHE_DRIVER="redis": expected one of database, memory',
    );
  });
});
