import {
  DummyDriver,
  Kysely,
  MysqlAdapter,
  MysqlIntrospector,
  MysqlQueryCompiler,
  PostgresAdapter,
  sql,
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Generated,
  type QueryResult,
} from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  compiledInsertReturning,
  connectDatabase,
  insertIfAbsent,
  insertReturning,
  updateReturning,
  upsert,
  type Database,
} from '../../../runtime/db/index.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';

interface DB {
  items: { id: Generated<number>; title: string; rank: Generated<number>; created_at: Generated<Date> };
  labels: { name: string; color: string; uses: Generated<number> };
  pairs: { a: number; b: number; note: string };
}

/** PostgreSQL's dialect with an adapter that says it has no `RETURNING`: the path of engines without it. */
function withoutReturning(dialect: Dialect): Dialect {
  class NoReturningAdapter extends PostgresAdapter {
    override get supportsReturning(): boolean {
      return false;
    }
  }
  return {
    createAdapter: () => new NoReturningAdapter(),
    createDriver: () => dialect.createDriver(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
  };
}

describe('portable writes | insert/update returning the row, upserts, on PostgreSQL', () => {
  let testDb: TestDatabase;
  let database: Database;
  let db: Kysely<DB>;
  const statements: string[] = [];
  beforeAll(async () => {
    testDb = await createTestDatabase('portable_writes');
    database = await connectDatabase({ url: testDb.url });
    db = database.db as Kysely<DB>;
    await sql`create table items (id bigint generated always as identity primary key, title text not null unique, rank integer not null default 7, created_at timestamptz not null default now())`.execute(
      db,
    );
    await sql`create table labels (name text primary key, color text not null, uses integer not null default 0)`.execute(db);
    await sql`create table pairs (a integer not null, b integer not null, note text not null, primary key (a, b))`.execute(db);
    database.engine.observe({
      queryStarted: (text) => {
        statements.push(text);
        return undefined;
      },
    });
  });
  afterAll(async () => {
    await database.close();
    await testDb.drop();
  });
  beforeEach(async () => {
    await sql`truncate items, labels, pairs`.execute(db);
    statements.length = 0;
  });

  it('insertReturning gives the row as stored: generated key and defaults', async () => {
    const row = await insertReturning(db, 'items', { title: 'first' });
    expect(row).toMatchObject({ title: 'first', rank: 7 });
    expect(typeof row.id).toBe('number');
    expect(row.created_at).toBeInstanceOf(Date);
    expect(await db.selectFrom('items').selectAll().execute()).toEqual([row]);
  });

  it('updateReturning gives the updated row, undefined for a key no row has', async () => {
    const row = await insertReturning(db, 'items', { title: 'old' });
    const updated = await updateReturning(db, 'items', row.id, { title: 'new', rank: 1 });
    expect(updated).toEqual({ ...row, title: 'new', rank: 1 });
    expect(await updateReturning(db, 'items', row.id + 1000, { title: 'nobody' })).toBeUndefined();
    expect(await updateReturning(db, 'labels', 'none', { color: 'red' }, { key: 'name' })).toBeUndefined();
  });

  it('compiledInsertReturning runs one statement per call, compiled once, with the row back', async () => {
    const insertItem = compiledInsertReturning((k: Kysely<DB>, title: string, rank: number) =>
      k.insertInto('items').values({ title, rank }),
    );
    const a = await insertItem(db, 'a', 1);
    const b = await insertItem(db, 'b', 2);
    expect(a).toMatchObject({ title: 'a', rank: 1 });
    expect(b).toMatchObject({ title: 'b', rank: 2 });
    expect(b.id).toBeGreaterThan(a.id);
    expect(statements).toEqual([
      'insert into "items" ("title", "rank") values ($1, $2) returning *',
      'insert into "items" ("title", "rank") values ($1, $2) returning *',
    ]);
    // In a transaction it runs on the transaction's connection: rolled back with it.
    await db
      .transaction()
      .execute(async (trx) => {
        await insertItem(trx, 'undone', 3);
        throw new Error('undo');
      })
      .catch(() => {});
    expect((await db.selectFrom('items').select('title').orderBy('id').execute()).map((r) => r.title)).toEqual(['a', 'b']);
  });

  it('upsert inserts, then updates the columns of the values but the key (or the ones named)', async () => {
    await upsert(db, 'labels', { name: 'bug', color: 'red' }, { conflict: ['name'] });
    await upsert(db, 'labels', { name: 'bug', color: 'orange' }, { conflict: ['name'] });
    expect(await db.selectFrom('labels').selectAll().execute()).toEqual([{ name: 'bug', color: 'orange', uses: 0 }]);
    await upsert(db, 'labels', { name: 'bug', color: 'green', uses: 5 }, { conflict: ['name'], update: ['uses'] });
    expect(statements.at(-1)).toBe(
      'insert into "labels" ("name", "color", "uses") values ($1, $2, $3) on conflict ("name") do update set "uses" = "excluded"."uses"',
    );
    expect(await db.selectFrom('labels').selectAll().execute()).toEqual([{ name: 'bug', color: 'orange', uses: 5 }]);
  });

  it('upsert takes several rows and a key of several columns', async () => {
    await upsert(db, 'pairs', { a: 1, b: 2, note: 'one' }, { conflict: ['a', 'b'] });
    await upsert(
      db,
      'pairs',
      [
        { a: 1, b: 2, note: 'changed' },
        { a: 2, b: 1, note: 'new' },
      ],
      { conflict: ['a', 'b'] },
    );
    expect(await db.selectFrom('pairs').selectAll().orderBy('a').execute()).toEqual([
      { a: 1, b: 2, note: 'changed' },
      { a: 2, b: 1, note: 'new' },
    ]);
  });

  it('insertIfAbsent inserts the rows whose key is free, keeps the others as they are, and counts', async () => {
    expect(await insertIfAbsent(db, 'labels', { name: 'bug', color: 'red' }, { conflict: ['name'] })).toBe(1);
    expect(await insertIfAbsent(db, 'labels', { name: 'bug', color: 'blue' }, { conflict: ['name'] })).toBe(0);
    const rows = [
      { name: 'bug', color: 'green' },
      { name: 'docs', color: 'grey' },
    ];
    expect(await insertIfAbsent(db, 'labels', rows, { conflict: ['name'] })).toBe(1);
    expect(statements.at(-1)).toBe('insert into "labels" ("name", "color") values ($1, $2), ($3, $4) on conflict ("name") do nothing');
    expect(await db.selectFrom('labels').select(['name', 'color']).orderBy('name').execute()).toEqual([
      { name: 'bug', color: 'red' },
      { name: 'docs', color: 'grey' },
    ]);
  });

  it('insertIfAbsent on PostgreSQL still fails on a duplicate of another unique key than the one named', async () => {
    await insertReturning(db, 'items', { title: 'taken' });
    await expect(insertIfAbsent(db, 'items', { title: 'taken' }, { conflict: ['id'] })).rejects.toMatchObject({
      constraint: 'items_title_key',
    });
  });

  describe('on an engine without RETURNING: the write, then the row read by its key', () => {
    let plain: Kysely<DB>;
    beforeAll(() => {
      plain = new Kysely<DB>({ dialect: withoutReturning(database.engine.dialect) });
    });

    it('insertReturning and updateReturning read the row back by the key given', async () => {
      const row = await insertReturning(plain, 'labels', { name: 'bug', color: 'red' }, { key: 'name' });
      expect(row).toEqual({ name: 'bug', color: 'red', uses: 0 });
      expect(await updateReturning(plain, 'labels', 'bug', { uses: 2 }, { key: 'name' })).toEqual({ name: 'bug', color: 'red', uses: 2 });
      expect(statements.some((s) => s.includes('returning'))).toBe(false);
      expect(statements.filter((s) => s.startsWith('select'))).toHaveLength(2);
    });

    it('compiledInsertReturning reads the row back by the key the insert gave', async () => {
      const insertLabel = compiledInsertReturning(
        (k: Kysely<DB>, name: string, color: string) => k.insertInto('labels').values({ name, color }),
        {
          key: 'name',
        },
      );
      expect(await insertLabel(plain, 'docs', 'grey')).toEqual({ name: 'docs', color: 'grey', uses: 0 });
      expect(statements).toEqual(['insert into "labels" ("name", "color") values ($1, $2)', 'select * from "labels" where "name" = $1']);
    });
  });
});

/** A MySQL dialect that answers nothing and keeps the SQL it was sent. */
function recordingMysql(sent: string[]): Dialect {
  const connection: DatabaseConnection = {
    async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
      sent.push(query.sql);
      return { rows: [], numAffectedRows: 0n };
    },
    async *streamQuery() {},
  };
  return {
    createAdapter: () => new MysqlAdapter(),
    createDriver: () => Object.assign(new DummyDriver(), { acquireConnection: async () => connection }),
    createIntrospector: (db) => new MysqlIntrospector(db),
    createQueryCompiler: () => new MysqlQueryCompiler(),
  };
}

describe('portable writes | what they compile to on MySQL', () => {
  it("upsert is ON DUPLICATE KEY UPDATE with the new row's values (the key set to itself when nothing is updated); insertIfAbsent a plain INSERT per row, never INSERT IGNORE", async () => {
    const sent: string[] = [];
    const db = new Kysely<DB>({ dialect: recordingMysql(sent) });
    await upsert(db, 'labels', { name: 'bug', color: 'red' }, { conflict: ['name'] });
    await upsert(db, 'labels', { name: 'bug', color: 'blue' }, { conflict: ['name'], update: [] });
    await insertIfAbsent(
      db,
      'pairs',
      [
        { a: 1, b: 2, note: 'x' },
        { a: 1, b: 3, note: 'y' },
      ],
      { conflict: ['a', 'b'] },
    );
    expect(sent).toEqual([
      'insert into `labels` (`name`, `color`) values (?, ?) on duplicate key update `color` = values(`color`)',
      'insert into `labels` (`name`, `color`) values (?, ?) on duplicate key update `name` = `name`',
      'insert into `pairs` (`a`, `b`, `note`) values (?, ?, ?)',
      'insert into `pairs` (`a`, `b`, `note`) values (?, ?, ?)',
    ]);
  });
});
