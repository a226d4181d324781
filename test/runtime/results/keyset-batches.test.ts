/**
 * `keysetBatches` (runtime/results/stream/keyset-batches.ts; docs/http.md
 * "Unbounded answers") on a real database (PostgreSQL; MariaDB in the
 * `mariadb` project): every row once, in key order,
 * the query's own `where`s kept and its order and limit replaced; batches
 * sized by the rows' text; the next batch read while one is handed out,
 * never further ahead; a key that is not selected is a TypeError.
 */
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../../../runtime/db/index.js';
import { keysetBatches } from '../../../runtime/results/stream/keyset-batches.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';

interface DB {
  items: { id: number; owner: number; body: string };
  owners: { id: number; name: string };
}

let testDb: TestDatabase;
let database: Database;
let db: Kysely<DB>;

beforeAll(async () => {
  testDb = await createTestDatabase('keyset');
  database = await connectDatabase({ url: testDb.url });
  db = database.db as unknown as Kysely<DB>;
  await sql`create table owners (id int primary key, name text not null)`.execute(db);
  await sql`create table items (id int primary key, owner int not null references owners (id), body text not null)`.execute(db);
  await sql`insert into owners values (1, 'one'), (2, 'two')`.execute(db);
  // 250 items: odd ids of owner 1, even of owner 2; bodies of 1,000 characters; inserted out of order.
  const items = Array.from({ length: 250 }, (_, i) => 250 - i).map((id) => ({ id, owner: 2 - (id % 2), body: 'b'.repeat(1000) }));
  await db.insertInto('items').values(items).execute();
});
afterAll(async () => {
  await database?.close();
  await testDb?.drop();
});

/** Every batch of `source`, in order. */
async function all<T>(source: AsyncIterable<T[]>): Promise<T[][]> {
  const out: T[][] = [];
  for await (const batch of source) out.push(batch);
  return out;
}

describe('keysetBatches', () => {
  it('gives every row once in key order, keeping the where and replacing order and limit', async () => {
    const query = db.selectFrom('items').selectAll().where('owner', '=', 1).orderBy('body', 'desc').limit(3);
    const batches = await all(keysetBatches(query, { key: 'id', size: 40 }));
    const ids = batches.flat().map((r) => r.id);
    expect(ids).toEqual(Array.from({ length: 125 }, (_, i) => 2 * i + 1));
    expect(batches[0]).toHaveLength(16);
    expect(batches.slice(1, -1).every((b) => b.length === 40)).toBe(true);
  });

  it('sizes batches by their text: about `bytes` characters each', async () => {
    const batches = await all(keysetBatches(db.selectFrom('items').selectAll(), { key: 'id', bytes: 10_000 }));
    expect(batches.flat()).toHaveLength(250);
    // 1,000 characters of body and a few of the rest: 9 rows fill 10,000.
    expect(batches.slice(1, -1).map((b) => b.length)).toEqual(Array.from({ length: batches.length - 2 }, () => 9));
  });

  it('takes the column of the key apart from its member, for a join', async () => {
    const query = db
      .selectFrom('items')
      .innerJoin('owners', 'owners.id', 'items.owner')
      .select(['items.id as item', 'owners.name'])
      .where('owners.name', '=', 'two');
    const rows = (await all(keysetBatches(query, { key: 'item', column: 'items.id', size: 50 }))).flat();
    expect(rows.map((r) => r.item)).toEqual(Array.from({ length: 125 }, (_, i) => 2 * i + 2));
    expect(new Set(rows.map((r) => r.name))).toEqual(new Set(['two']));
  });

  it('reads one batch ahead of the one handed out, no further; closing it early reads no more', async () => {
    let reads = 0;
    const counted = db.withPlugin({
      transformQuery: (args) => {
        reads++;
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    const source = keysetBatches(counted.selectFrom('items').selectAll(), { key: 'id', size: 20 });
    const first = await source.next();
    expect(first.value).toHaveLength(16);
    expect(reads).toBe(2); // the first batch, and the second read meanwhile
    await new Promise((r) => setTimeout(r, 50));
    expect(reads).toBe(2);
    await source.next();
    expect(reads).toBe(3);
    await source.return(undefined);
    expect(reads).toBe(3);
    expect((await source.next()).done).toBe(true);
  });

  it('is empty for no rows; a key that is not selected is a TypeError', async () => {
    expect(await all(keysetBatches(db.selectFrom('items').selectAll().where('id', '<', 0), { key: 'id' }))).toEqual([]);
    const withoutKey = db.selectFrom('items').select('body') as unknown as Parameters<typeof keysetBatches>[0];
    await expect(all(keysetBatches(withoutKey, { key: 'id' as never }))).rejects.toThrow(TypeError);
  });
});
