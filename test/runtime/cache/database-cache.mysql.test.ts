/**
 * The database cache on MariaDB (docs/auth.md "The cache"): the `cache`
 * migration set's MySQL files applied by the app's migrator at boot, values
 * kept exactly (4-byte UTF-8, more than 64 KB), keys compared byte for byte,
 * fixed-window counters, and concurrent increments that lose no count.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, defineApp, type TestApp } from '../../../runtime/app/index.js';
import { cache } from '../../../runtime/cache/index.js';
import { DatabaseCache } from '../../../runtime/cache/drivers/database-cache.js';
import { createTestMariaDatabase, type TestDatabase } from '../../support/database.js';

let clock = 1_700_000_000_000;
const now = () => clock;
const app = defineApp({
  name: 'cachemaria',
  root: fileURLToPath(new URL('.', import.meta.url)),
  routes: [],
  handlers: {},
  migrations: [],
  setup: [cache({ now })],
});

let database: TestDatabase;
let t: TestApp;

beforeAll(async () => {
  database = await createTestMariaDatabase('cachemaria');
  t = await createTestApp(app, { databaseUrl: database.url });
});
afterAll(async () => {
  await t?.close();
  await database?.drop();
});

describe('Database cache on MariaDB', () => {
  it('the boot applied the cache set from its mysql/ folder', async () => {
    expect(t.running.services.cache).toBeInstanceOf(DatabaseCache);
    const applied = await t.db
      .selectFrom('bindery_migrations' as any)
      .select(['source', 'name'])
      .execute();
    expect(applied).toEqual([{ source: 'cache', name: '0001_create_bindery_cache.sql' }]);
  });

  it('stores JSON values until their time to live has passed, then forgets them', async () => {
    const c = new DatabaseCache(t.db, now);
    await c.put('value', { a: [1, 'two', null], b: true, n: 1.5 }, 1000);
    expect(await c.get('value')).toEqual({ a: [1, 'two', null], b: true, n: 1.5 });
    await c.put('value', 'replaced', 1000);
    expect(await c.get('value')).toBe('replaced');
    clock += 999;
    expect(await c.get('value')).toBe('replaced');
    clock += 1;
    expect(await c.get('value')).toBeUndefined();
    await c.put('value', 0, 1000);
    expect(await c.get('value')).toBe(0);
    await c.forget('value');
    expect(await c.get('value')).toBeUndefined();
  });

  it('keeps 4-byte UTF-8 and values over 64 KB exactly', async () => {
    const c = new DatabaseCache(t.db, now);
    const long = `${'é🎉'.repeat(30_000)}end`;
    await c.put('long', { text: long, emoji: '😀👍🏽' }, 60_000);
    const back = (await c.get<{ text: string; emoji: string }>('long'))!;
    expect(back.emoji).toBe('😀👍🏽');
    expect(back.text.length).toBe(long.length);
    expect(back.text).toBe(long);
    await c.put('🔑', 'emoji key', 60_000);
    expect(await c.get('🔑')).toBe('emoji key');
  });

  it('keys are byte-exact: `a` and `A`, `e` and `é` are different keys', async () => {
    const c = new DatabaseCache(t.db, now);
    await c.put('a', 'lower', 60_000);
    await c.put('A', 'upper', 60_000);
    await c.put('é', 'accent', 60_000);
    expect([await c.get('a'), await c.get('A'), await c.get('é'), await c.get('e')]).toEqual(['lower', 'upper', 'accent', undefined]);
    await c.increment('k', 60_000);
    expect((await c.increment('K', 60_000)).count).toBe(1);
  });

  it('counts in a fixed window that starts with the first increment and does not slide', async () => {
    const c = new DatabaseCache(t.db, now);
    expect(await c.peek('counter')).toEqual({ count: 0, resetAt: clock });
    const start = clock;
    expect(await c.increment('counter', 60_000)).toEqual({ count: 1, resetAt: start + 60_000 });
    clock += 30_000;
    expect(await c.increment('counter', 60_000)).toEqual({ count: 2, resetAt: start + 60_000 });
    expect(await c.peek('counter')).toEqual({ count: 2, resetAt: start + 60_000 });
    clock += 30_000;
    expect(await c.peek('counter')).toEqual({ count: 0, resetAt: clock });
    expect(await c.increment('counter', 60_000)).toEqual({ count: 1, resetAt: clock + 60_000 });
  });

  it('a counter over a plain value starts again at 1, in a new window', async () => {
    const c = new DatabaseCache(t.db, now);
    await c.put('mixed', 'text', 5_000);
    expect(await c.increment('mixed', 60_000)).toEqual({ count: 1, resetAt: clock + 60_000 });
    expect((await c.increment('mixed', 60_000)).count).toBe(2);
    expect(await c.get('mixed')).toBe(2);
  });

  it('concurrent increments from separate connections lose no count, the first ones included', async () => {
    const c = new DatabaseCache(t.db, now);
    const results = await Promise.all(Array.from({ length: 40 }, () => c.increment('race', 60_000)));
    expect(results.map((r) => r.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect((await c.peek('race')).count).toBe(40);
  });

  it('concurrent first increments of many keys, each counted several times at once, lose no count', async () => {
    const c = new DatabaseCache(t.db, now);
    const keys = Array.from({ length: 30 }, (_, i) => `burst:${i}`);
    await Promise.all(keys.flatMap((k) => [c.increment(k, 60_000), c.increment(k, 60_000), c.increment(k, 60_000)]));
    expect(await Promise.all(keys.map(async (k) => (await c.peek(k)).count))).toEqual(keys.map(() => 3));
  });

  it('an increment inside a transaction counts with it', async () => {
    await t.db.transaction().execute(async (tx) => {
      const c = new DatabaseCache(tx, now);
      expect((await c.increment('tx', 60_000)).count).toBe(1);
      expect((await c.increment('tx', 60_000)).count).toBe(2);
    });
    expect((await new DatabaseCache(t.db, now).peek('tx')).count).toBe(2);
  });

  it('prune deletes expired entries only', async () => {
    const c = new DatabaseCache(t.db, now);
    await c.put('short', 1, 10);
    await c.put('keep', 2, 1_000_000);
    clock += 10;
    expect(await c.prune()).toBeGreaterThanOrEqual(1);
    expect(await c.get('short')).toBeUndefined();
    expect(await c.get('keep')).toBe(2);
  });
});
