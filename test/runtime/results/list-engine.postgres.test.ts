/**
 * The list runner on the engine's SQL pieces (docs/database.md "Lists and
 * cursors"): it finds the engine of the Kysely instance it is given — the
 * one `connectDatabase` made, a transaction on it, one with a plugin — and
 * a page read inside a transaction runs on the transaction's connection.
 */
import { randomBytes } from 'node:crypto';
import { CamelCasePlugin, Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CursorSealer } from '../../../runtime/crypto/cursor-codec.js';
import { KeyRing } from '../../../runtime/crypto/key-ring.js';
import { engineOf } from '../../../runtime/db/compiled-query.js';
import { connectDatabase, type Database } from '../../../runtime/db/index.js';
import { runList, runOffsetList, type ListPage, type OffsetPage } from '../../../runtime/results/index.js';
import type { ListPlan, RouteDefinition } from '../../../runtime/routing/route-table.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';

let testDb: TestDatabase;
let database: Database;
const cursors = new CursorSealer(new KeyRing(randomBytes(32), []));

interface Item {
  id: number;
  title: string;
  created_at: Date;
}

const plan: ListPlan = {
  table: 'items',
  primaryKey: 'id',
  primaryKeyColumnType: 'bigint',
  softDelete: false,
  sort: [
    { name: 'created_at', column: 'created_at', columnType: 'timestamp' },
    { name: 'title', column: 'title', columnType: 'string(50)' },
  ],
  filters: [
    { key: 'filter_tags', param: 'filter[tags]', column: 'tags', op: 'contains', columnType: 'string', array: true },
    { key: 'filter_title', param: 'filter[title]', column: 'title', op: 'contains', columnType: 'string(50)', array: false },
  ],
};
const route = { name: 'items.list', list: plan } as unknown as RouteDefinition;
const offsetRoute = { name: 'items.pages', list: { ...plan, paging: 'offset' } } as unknown as RouteDefinition;

beforeAll(async () => {
  testDb = await createTestDatabase('list_engine');
  database = await connectDatabase({ url: testDb.url });
  await sql`create table items (id bigint generated always as identity primary key, title varchar(50) not null, tags text[] not null default '{}', created_at timestamptz not null)`.execute(
    database.db,
  );
  await sql`insert into items (title, tags, created_at)
    select 'item ' || i, case when i % 2 = 0 then array['even'] else array[]::text[] end, timestamptz '2026-03-01T10:00:00.5Z' + i * interval '1 minute'
    from generate_series(1, 10) as i`.execute(database.db);
});
afterAll(async () => {
  await database?.close();
  await testDb?.drop();
});

describe('list runner | the engine of the Kysely instance', () => {
  it('engineOf finds the engine of the root instance, of a transaction on it and of an instance with a plugin', async () => {
    const db = database.db;
    expect(engineOf(db)).toBe(database.engine);
    expect(engineOf(db.withPlugin(new CamelCasePlugin()))).toBe(database.engine);
    await db.transaction().execute(async (trx) => {
      expect(engineOf(trx)).toBe(database.engine);
    });
  });

  it('refuses, with the reason, a Kysely instance connectDatabase did not make', async () => {
    const pool = new pg.Pool({ connectionString: testDb.url, max: 1 });
    const other = new Kysely({ dialect: new PostgresDialect({ pool }) });
    try {
      expect(() => engineOf(other)).toThrow(/no bindery database engine: use the `db` of `connectDatabase`/);
      await expect(runList({ services: { db: other, cursors } }, route, { sort: 'title', limit: 2 })).rejects.toThrow(TypeError);
    } finally {
      await other.destroy();
    }
  });

  it("reads pages inside a transaction on the transaction's connection: its own rows seen, cursors followed, filters applied", async () => {
    await database.db
      .transaction()
      .execute(async (trx) => {
        await sql`insert into items (title, tags, created_at) values ('item 0 (uncommitted)', array['even'], timestamptz '2026-03-01T09:00:00Z')`.execute(
          trx,
        );
        const ctx = { services: { db: trx, cursors } };
        const first = await runList<Item>(ctx, route, { sort: 'created_at', limit: 3, filter_tags: 'even' });
        expect(first.data.map((r) => r.title)).toEqual(['item 0 (uncommitted)', 'item 2', 'item 4']);
        const second = await runList<Item>(ctx, route, { sort: 'created_at', limit: 3, filter_tags: 'even', cursor: first.next });
        expect(second.data.map((r) => r.title)).toEqual(['item 6', 'item 8', 'item 10']);
        const contains = await runList<Item>(ctx, route, { sort: '-title', limit: 5, filter_title: 'uncommitted' });
        expect(contains.data.map((r) => r.title)).toEqual(['item 0 (uncommitted)']);
        const counted = (await runOffsetList<Item>(ctx, offsetRoute, {
          sort: 'title',
          limit: 2,
          offset: 50,
          filter_tags: 'even',
        })) as OffsetPage<Item>;
        expect(counted).toEqual({ data: [], total: 6 });
        throw new Error('roll back');
      })
      .catch((error: Error) => expect(error.message).toBe('roll back'));
    const outside: ListPage<Item> = await runList<Item>({ services: { db: database.db, cursors } }, route, {
      sort: 'created_at',
      limit: 1,
      filter_tags: 'even',
    });
    expect(outside.data.map((r) => r.title)).toEqual(['item 2']);
  });
});
