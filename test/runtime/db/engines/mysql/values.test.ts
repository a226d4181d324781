import { sql, type Generated, type Kysely } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../../../../../runtime/db/connect.js';
import { UnsafeIntegerError } from '../../../../../runtime/db/errors.js';
import { createTestDatabase, createTestMariaDatabase, type TestDatabase } from '../../../../support/database.js';

interface Row {
  id: Generated<number>;
  big: number | null;
  flag: boolean | null;
  at: Date | null;
  label: string | null;
  body: string | null;
  doc: unknown;
  tags: unknown;
  price: string | null;
  ratio: number | null;
}

describe('MySQL engine | values read and written exactly (MariaDB)', () => {
  let testDb: TestDatabase;
  let database: Database;
  beforeAll(async () => {
    testDb = await createTestMariaDatabase('values');
    database = await connectDatabase({ url: testDb.url });
    await database.engine.run(`CREATE TABLE things (
      id BIGINT AUTO_INCREMENT PRIMARY KEY, big BIGINT, flag BOOLEAN, at DATETIME(6), label VARCHAR(200), body LONGTEXT,
      doc JSON, tags JSON, price DECIMAL(20, 2), ratio DOUBLE)`);
  });
  afterAll(async () => {
    await database?.close();
    await testDb?.drop();
  });
  afterEach(async () => {
    await database.engine.run('DELETE FROM things');
  });

  const things = () => database.db as unknown as Kysely<{ things: Row }>;

  it('BIGINT: safe integers as numbers; beyond ±2^53 the statement fails with UnsafeIntegerError and the connection stays usable', async () => {
    await database.engine.run('INSERT INTO things (big) VALUES (?), (?), (?)', [9007199254740991, -9007199254740991, 42]);
    const { rows } = await database.engine.run('SELECT big, COUNT(*) OVER () AS n FROM things WHERE big IS NOT NULL ORDER BY big');
    expect(rows).toEqual([
      { big: -9007199254740991, n: 3 },
      { big: 42, n: 3 },
      { big: 9007199254740991, n: 3 },
    ]);
    await database.engine.run('INSERT INTO things (big) VALUES (?)', ['9007199254740993']);
    await expect(things().selectFrom('things').select('big').execute()).rejects.toBeInstanceOf(UnsafeIntegerError);
    await expect(database.engine.run('SELECT big FROM things', [], { prepare: true })).rejects.toThrow(/9007199254740993/);
    // In a transaction: the statement fails, the transaction goes on (the connection was not ended).
    const result = await things()
      .transaction()
      .execute(async (trx) => {
        const error = await sql`SELECT CAST('9007199254740993' AS SIGNED) AS v`.execute(trx).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(UnsafeIntegerError);
        return (await sql<{ one: number }>`SELECT 1 AS one`.execute(trx)).rows;
      });
    expect(result).toEqual([{ one: 1 }]);
    // A streamed query too.
    const streamed = async () => {
      for await (const _ of things().selectFrom('things').select('big').stream()) void _;
    };
    await expect(streamed()).rejects.toBeInstanceOf(UnsafeIntegerError);
  });

  it('DATETIME(6) holds UTC: a Date round-trips (milliseconds), microseconds stay in the sort key text, NOW() is UTC', async () => {
    const at = new Date('2024-02-29T23:59:58.123Z');
    await things().insertInto('things').values({ at }).execute();
    await database.engine.run("INSERT INTO things (at) VALUES ('2024-03-01 00:00:00.654321')");
    const rows = await things()
      .selectFrom('things')
      .select(['at', database.engine.sql.sortKeyText(sql.ref('at'), 'timestamp').as('key')])
      .orderBy('at')
      .execute();
    expect(rows).toEqual([
      { at, key: '2024-02-29T23:59:58.123000Z' },
      { at: new Date('2024-03-01T00:00:00.654Z'), key: '2024-03-01T00:00:00.654321Z' },
    ]);
    // The key read back with the cast finds the row exactly (microseconds included).
    const found = await things()
      .selectFrom('things')
      .select('id')
      .where(sql.ref('at'), '=', database.engine.sql.cast('2024-03-01T00:00:00.654321Z', 'timestamp'))
      .execute();
    expect(found).toHaveLength(1);
    const offset = await things()
      .selectFrom('things')
      .select('id')
      .where(sql.ref('at'), '=', database.engine.sql.cast('2024-03-01T02:00:00.654321+02:00', 'timestamp'))
      .execute();
    expect(offset).toEqual(found);
    // A prepared statement (the binary protocol) writes and reads a Date in UTC too.
    await database.engine.run('INSERT INTO things (at) VALUES (?)', [new Date('2031-01-02T03:04:05.006Z')], { prepare: true });
    const { rows: prepared } = await database.engine.run(
      "SELECT at, DATE_FORMAT(at, '%Y-%m-%dT%H:%i:%s.%fZ') AS text FROM things WHERE at > ?",
      [new Date('2031-01-01T00:00:00Z')],
      { prepare: true },
    );
    expect(prepared).toEqual([{ at: new Date('2031-01-02T03:04:05.006Z'), text: '2031-01-02T03:04:05.006000Z' }]);
    const { rows: now } = await database.engine.run<{ skew: number }>('SELECT ABS(TIMESTAMPDIFF(SECOND, NOW(6), ?)) AS skew', [new Date()]);
    expect(now[0]!.skew).toBeLessThan(5);
  });

  it('4-byte UTF-8 (emoji, supplementary CJK) and a 200 KB LONGTEXT round-trip unchanged', async () => {
    const label = 'émoji 😀🎉 𠜎 done';
    const body = `${'Ünïcödé 😀 '.repeat(20_000)}end`;
    expect(Buffer.byteLength(body)).toBeGreaterThan(200_000);
    await things().insertInto('things').values({ label, body }).execute();
    const row = await things().selectFrom('things').select(['label', 'body']).executeTakeFirstOrThrow();
    expect(row.label).toBe(label);
    expect(row.body).toBe(body);
  });

  it('JSON columns are parsed (MariaDB keeps them as LONGTEXT), objects and arrays are written as JSON', async () => {
    const doc = { title: 'x', nested: { list: [1, 2, { deep: true }] }, empty: null };
    await things()
      .insertInto('things')
      .values({ doc, tags: ['a', 'b'] })
      .execute();
    await database.engine.run('INSERT INTO things (doc, tags) VALUES (?, ?)', [{ n: 1 }, []]);
    const rows = await things().selectFrom('things').select(['doc', 'tags']).orderBy('id').execute();
    expect(rows).toEqual([
      { doc, tags: ['a', 'b'] },
      { doc: { n: 1 }, tags: [] },
    ]);
    const { rows: extracted } = await database.engine.run("SELECT JSON_EXTRACT(doc, '$.nested') AS nested FROM things ORDER BY id LIMIT 1");
    expect(extracted).toEqual([{ nested: { list: [1, 2, { deep: true }] } }]);
  });

  it('BOOLEAN (TINYINT(1)) as true/false, DECIMAL as text, DOUBLE as a number, NULL as null', async () => {
    await things()
      .insertInto('things')
      .values([{ flag: true, price: '12345678901234567.89', ratio: 0.1 }, { flag: false }, {}])
      .execute();
    const rows = await things().selectFrom('things').select(['flag', 'price', 'ratio']).orderBy('id').execute();
    expect(rows).toEqual([
      { flag: true, price: '12345678901234567.89', ratio: 0.1 },
      { flag: false, price: null, ratio: null },
      { flag: null, price: null, ratio: null },
    ]);
    const prepared = await database.engine.run('SELECT flag FROM things WHERE flag IS NOT NULL ORDER BY id', [], { prepare: true });
    expect(prepared.rows).toEqual([{ flag: true }, { flag: false }]);
  });

  it('listContains over JSON lists, textContains, countAll', async () => {
    await things()
      .insertInto('things')
      .values([{ tags: ['red', 'blue'], label: 'Hello world' }, { tags: [5, 7] }, { tags: [] }])
      .execute();
    const s = database.engine.sql;
    const ids = async (where: ReturnType<typeof s.listContains>) =>
      (await things().selectFrom('things').select('label').where(where).orderBy('id').execute()).length;
    expect(await ids(s.listContains(sql.ref('tags'), 'blue', 'string[]'))).toBe(1);
    expect(await ids(s.listContains(sql.ref('tags'), 'green', 'string[]'))).toBe(0);
    expect(await ids(s.listContains(sql.ref('tags'), 7, 'integer[]'))).toBe(1);
    expect(await ids(s.listContains(sql.ref('tags'), '7', 'integer[]'))).toBe(1);
    expect(await ids(s.textContains(sql.ref('label'), 'lo wo'))).toBe(1);
    expect(await ids(s.textContains(sql.ref('label'), 'LO WO'))).toBe(0);
    const count = await things().selectFrom('things').select(s.countAll().as('n')).executeTakeFirstOrThrow();
    expect(count).toEqual({ n: 3 });
  });
});

describe('MySQL engine | sortKeyText and cast give the text PostgreSQL gives', () => {
  let pgDb: TestDatabase;
  let pgDatabase: Database;
  let mariaDb: TestDatabase;
  let maria: Database;
  beforeAll(async () => {
    [pgDb, mariaDb] = await Promise.all([createTestDatabase('sortkey'), createTestMariaDatabase('sortkey')]);
    [pgDatabase, maria] = await Promise.all([connectDatabase({ url: pgDb.url }), connectDatabase({ url: mariaDb.url })]);
  });
  afterAll(async () => {
    await Promise.all([pgDatabase?.close(), maria?.close()]);
    await Promise.all([pgDb?.drop(), mariaDb?.drop()]);
  });

  /** The sort key of `value` read as `type` (the engine's cast, then its sort key text). */
  async function keyOf(database: Database, value: unknown, type: string): Promise<unknown> {
    const { rows } = await sql<{
      key: unknown;
    }>`SELECT ${database.engine.sql.sortKeyText(database.engine.sql.cast(value, type), type)} AS ${sql.ref('key')}`.execute(database.db);
    return rows[0]?.key;
  }

  const cases: Array<[unknown, string]> = [
    ['2024-01-02T03:04:05.123456Z', 'timestamp'],
    ['2024-01-02T03:04:05Z', 'timestamp'],
    ['1999-12-31T23:59:59.999999Z', 'timestamp'],
    ['2024-07-01T12:00:00.5+02:00', 'timestamp'],
    [new Date('2030-05-06T07:08:09.010Z'), 'timestamp'],
    [0, 'integer'],
    [-2147483648, 'integer'],
    [9007199254740991, 'bigint'],
    ['-42', 'bigint'],
    ['plain text', 'string'],
    ['émoji 😀 and "quotes"', 'string(200)'],
    ['', 'text'],
    ['0b9a4f3e-1c2d-4e5f-8a9b-0c1d2e3f4a5b', 'uuid'],
    [true, 'boolean'],
    [false, 'boolean'],
    ['true', 'boolean'],
    [null, 'timestamp'],
    [null, 'bigint'],
    [null, 'string'],
  ];

  it.each(cases)('%s as %s', async (value, type) => {
    const [onPostgres, onMaria] = await Promise.all([keyOf(pgDatabase, value, type), keyOf(maria, value, type)]);
    expect(onMaria).toBe(onPostgres);
  });

  it('a column read with sortKeyText is what PostgreSQL gives for the same stored instant', async () => {
    await maria.engine.run('CREATE TABLE t (at DATETIME(6))');
    await maria.engine.run("INSERT INTO t VALUES ('0099-01-01 00:00:00.000001'), ('2024-12-31 23:59:59.999999')");
    const { rows } = await sql<{
      key: string;
    }>`SELECT ${maria.engine.sql.sortKeyText(sql.ref('at'), 'timestamp')} AS ${sql.ref('key')} FROM t ORDER BY at`.execute(maria.db);
    const { rows: pgRows } = await sql<{
      key: string;
    }>`SELECT ${pgDatabase.engine.sql.sortKeyText(sql.ref('at'), 'timestamp')} AS ${sql.ref('key')}
      FROM (VALUES (timestamptz '0099-01-01 00:00:00.000001+00'), (timestamptz '2024-12-31 23:59:59.999999+00')) AS v(at) ORDER BY at`.execute(
      pgDatabase.db,
    );
    expect(rows).toEqual(pgRows);
    expect(rows.map((r) => r.key)).toEqual(['0099-01-01T00:00:00.000001Z', '2024-12-31T23:59:59.999999Z']);
  });
});
