/**
 * The database cache's statements on PostgreSQL (docs/auth.md "The cache"):
 * an increment is one `INSERT … ON CONFLICT … DO UPDATE … RETURNING`
 * statement (atomic across instances, one round trip per counted request),
 * a value one upsert.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, defineApp, type TestApp } from '../../../runtime/app/index.js';
import { cache } from '../../../runtime/cache/index.js';
import { DatabaseCache } from '../../../runtime/cache/drivers/database-cache.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';

const app = defineApp({
  name: 'cachepg',
  root: fileURLToPath(new URL('.', import.meta.url)),
  routes: [],
  handlers: {},
  migrations: [],
  setup: [cache()],
});

let database: TestDatabase;
let t: TestApp;
const statements: string[] = [];

beforeAll(async () => {
  database = await createTestDatabase('cachepg');
  t = await createTestApp(app, { databaseUrl: database.url });
  t.running.database.engine.observe({
    queryStarted: (text) => {
      statements.push(text.replace(/\s+/g, ' ').trim());
      return undefined;
    },
  });
});
afterAll(async () => {
  await t?.close();
  await database?.drop();
});

describe('Database cache on PostgreSQL | its statements', () => {
  it('an increment is one INSERT … ON CONFLICT … RETURNING; a peek one SELECT; a put one upsert', async () => {
    const c = new DatabaseCache(t.db);
    statements.length = 0;
    expect((await c.increment('pg:count', 60_000)).count).toBe(1);
    expect((await c.increment('pg:count', 60_000)).count).toBe(2);
    expect(statements).toHaveLength(2);
    expect(statements[0]).toMatch(
      /^INSERT INTO bindery_cache AS c \(key, value, expires_at\) VALUES \(\$1, '1'::jsonb, \$2\) ON CONFLICT \(key\) DO UPDATE SET/,
    );
    expect(statements[0]).toMatch(/RETURNING c\.value::text AS count, c\.expires_at$/);
    statements.length = 0;
    expect((await c.peek('pg:count')).count).toBe(2);
    await c.put('pg:value', { a: 1 }, 60_000);
    expect(await c.get('pg:value')).toEqual({ a: 1 });
    expect(statements.slice(0, 2)).toEqual([
      "SELECT value::text AS count, expires_at FROM bindery_cache WHERE key = $1 AND expires_at > $2 AND jsonb_typeof(value) = 'number'",
      'insert into "bindery_cache" ("key", "value", "expires_at") values ($1, $2, $3) on conflict ("key") do update set "value" = "excluded"."value", "expires_at" = "excluded"."expires_at"',
    ]);
  });
});
