import { CamelCasePlugin, sql, type Generated, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledQuery, connectDatabase, type Database } from '../../../runtime/db/index.js';
import { executeBuilt } from '../../../runtime/db/compiled-query.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';

interface DB {
  items: { id: Generated<number>; title: string; tags: Generated<string[]>; created_at: Generated<Date> };
}

describe('compiledQuery | compiled once, run with new values', () => {
  let testDb: TestDatabase;
  let database: Database;
  let db: Kysely<DB>;
  beforeAll(async () => {
    testDb = await createTestDatabase('compiled');
    database = await connectDatabase({ url: testDb.url });
    db = database.db as Kysely<DB>;
    await sql`create table items (id bigint generated always as identity primary key, title text not null, tags text[] not null default '{}', created_at timestamptz not null default now())`.execute(
      db,
    );
  });
  afterAll(async () => {
    await database.close();
    await testDb.drop();
  });

  const insertItem = compiledQuery((k, title: string, tags: string[]) =>
    (k as Kysely<DB>).insertInto('items').values({ title, tags }).returningAll(),
  );
  const newest = compiledQuery((k, limit: number) =>
    (k as Kysely<DB>).selectFrom('items').selectAll().where('title', '<>', 'hidden').orderBy('id', 'desc').limit(limit),
  );

  it("inserts and selects with each call's values (arrays as one value), constants kept", async () => {
    const [a] = await insertItem(db, 'first', ['x', 'y']);
    const [b] = await insertItem(db, 'second', []);
    await insertItem(db, 'hidden', ['z']);
    expect(a).toMatchObject({ title: 'first', tags: ['x', 'y'] });
    expect(b).toMatchObject({ title: 'second', tags: [] });
    expect(a!.created_at).toBeInstanceOf(Date);
    expect((await newest(db, 1)).map((r) => r.title)).toEqual(['second']);
    expect((await newest(db, 5)).map((r) => r.title)).toEqual(['second', 'first']);
    expect(await newest(db, 0)).toEqual([]);
  });

  it("on the instance connectDatabase made, runs on its pool: errors are the pool's, the pool keeps working", async () => {
    const bad = compiledQuery((k, id: number) => (k as Kysely<DB>).selectFrom('items').selectAll().where('id', '=', id));
    await expect(bad(db, 'not a number' as unknown as number)).rejects.toMatchObject({ code: '22P02' });
    expect((await bad(db, 1))[0]!.title).toBe('first');
  });

  it("runs inside a transaction on the transaction's connection", async () => {
    await db
      .transaction()
      .execute(async (trx) => {
        await insertItem(trx, 'rolled back', []);
        expect((await newest(trx, 1))[0]!.title).toBe('rolled back');
        throw new Error('undo');
      })
      .catch(() => {});
    expect((await newest(db, 10)).map((r) => r.title)).not.toContain('rolled back');
  });

  it('builds per call on a Kysely with plugins (a plugin may rewrite each query)', async () => {
    const camel = db.withPlugin(new CamelCasePlugin()) as unknown as Kysely<{ items: { id: number; title: string; createdAt: Date } }>;
    const byTitle = compiledQuery((k, title: string) =>
      (k as typeof camel).selectFrom('items').select(['title', 'createdAt']).where('title', '=', title),
    );
    const [row] = await byTitle(camel, 'first');
    expect(Object.keys(row!)).toEqual(['title', 'createdAt']);
  });

  it('refuses a build that does not use an argument as a value', async () => {
    const unused = compiledQuery((k, _limit: number) => (k as Kysely<DB>).selectFrom('items').selectAll().limit(1));
    await expect(unused(db, 3)).rejects.toThrow(/argument 1 is not used as a value/);
  });
  it('executeBuilt runs a query built per call: on the pool, in a transaction, and through plugins', async () => {
    const titled = (k: Kysely<DB>, title: string) => k.selectFrom('items').select(['title']).where('title', '=', title);
    expect(await executeBuilt(db, titled(db, 'first'))).toEqual([{ title: 'first' }]);
    expect(await executeBuilt(db, titled(db, 'nothing'))).toEqual([]);
    await expect(
      executeBuilt(
        db,
        db
          .selectFrom('items')
          .selectAll()
          .where('id', '=', 'x' as unknown as number),
      ),
    ).rejects.toMatchObject({ code: '22P02' });
    await db
      .transaction()
      .execute(async (trx) => {
        await insertItem(trx, 'in trx', []);
        expect(await executeBuilt(trx, titled(trx, 'in trx'))).toEqual([{ title: 'in trx' }]);
        throw new Error('undo');
      })
      .catch(() => {});
    expect(await executeBuilt(db, titled(db, 'in trx'))).toEqual([]);
    const camel = db.withPlugin(new CamelCasePlugin()) as unknown as Kysely<{ items: { id: number; title: string; createdAt: Date } }>;
    const [row] = await executeBuilt(camel, camel.selectFrom('items').select(['title', 'createdAt']).where('title', '=', 'first'));
    expect(Object.keys(row!)).toEqual(['title', 'createdAt']);
  });
});
