import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../../../../../runtime/db/connect.js';
import { mysqlPoolOf } from '../../../../../runtime/db/engines/mysql/index.js';
import { observeQueries } from '../../../../../runtime/db/query-observer.js';
import { createTestMariaDatabase, type TestDatabase } from '../../../../support/database.js';
import { waitFor } from '../../../jobs/wait-for.js';

describe('MySQL engine | on the test MariaDB', () => {
  let testDb: TestDatabase;
  let database: Database;
  beforeAll(async () => {
    testDb = await createTestMariaDatabase('engine');
    database = await connectDatabase({ url: testDb.url });
    await database.engine.run('CREATE TABLE items (id BIGINT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(5) NOT NULL)');
  });
  afterAll(async () => {
    await database?.close();
    await testDb?.drop();
  });

  it('names the server it probed: mariadb, its version, the capabilities of MySQL and MariaDB', () => {
    expect(database.engine.name).toBe('mariadb');
    expect(database.engine.serverVersion).toMatch(/^\d+\.\d+\.\d+-MariaDB/);
    expect(database.engine.placeholder).toBe('?');
    expect(database.engine.capabilities).toEqual({
      returning: false,
      writableCte: false,
      transactionalDdl: false,
      skipLocked: true,
      partialIndexes: false,
      arrays: false,
      json: 'json',
    });
  });

  it('sets up every session: UTC, strict sql_mode, READ COMMITTED, utf8mb4 with a byte-exact collation', async () => {
    const { rows } = await database.engine.run(
      'SELECT @@SESSION.time_zone AS tz, @@SESSION.sql_mode AS mode, @@SESSION.tx_isolation AS isolation, @@collation_connection AS collation',
    );
    expect(rows[0]).toEqual({
      tz: '+00:00',
      mode: 'STRICT_ALL_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION',
      isolation: 'READ-COMMITTED',
      collation: 'utf8mb4_bin',
    });
  });

  it('refuses a value too long for its column instead of cutting it (a non-strict session would keep "abcde")', async () => {
    const error = await database.engine.run('INSERT INTO items (name) VALUES (?)', ['abcdefgh']).catch((e: unknown) => e);
    expect((error as { errno?: number }).errno).toBe(1406); // ER_DATA_TOO_LONG
    await expect(
      database.db
        .insertInto('items' as never)
        .values({ name: 'abcdefgh' } as never)
        .execute(),
    ).rejects.toMatchObject({ errno: 1406 });
    expect((await database.engine.run('SELECT COUNT(*) AS n FROM items')).rows).toEqual([{ n: 0 }]);
  });

  it('run: rows and row counts, ? placeholders, the text protocol or a prepared statement', async () => {
    const inserted = await database.engine.run('INSERT INTO items (name) VALUES (?), (?)', ['a', 'b']);
    expect(inserted.rowCount).toBe(2);
    const plain = await database.engine.run<{ name: string }>('SELECT name FROM items WHERE name IN (?, ?) ORDER BY name', ['a', 'b']);
    expect(plain).toEqual({ rows: [{ name: 'a' }, { name: 'b' }], rowCount: 2 });
    const prepared = await database.engine.run('SELECT name FROM items WHERE name = ? LIMIT ?', ['b', 1], { prepare: true });
    expect(prepared.rows).toEqual([{ name: 'b' }]);
    const again = await database.engine.run('SELECT name FROM items WHERE name = ? LIMIT ?', ['a', 1], { prepare: true });
    expect(again.rows).toEqual([{ name: 'a' }]);
    const deleted = await database.engine.run('DELETE FROM items WHERE name IN (?, ?)', ['a', 'b']);
    expect(deleted.rowCount).toBe(2);
  });

  it('connect: named locks are per session (tryLock false while another holds it), lock waits, unlock frees', async () => {
    const a = await database.engine.connect();
    const b = await database.engine.connect();
    try {
      expect(await a.tryLock('bindery!')).toBe(true);
      expect(await b.tryLock('bindery!')).toBe(false);
      let got = false;
      const waiting = b.lock('bindery!').then(() => {
        got = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(got).toBe(false);
      await a.unlock('bindery!');
      await waiting;
      expect(got).toBe(true);
      expect(await a.tryLock('bindery!')).toBe(false);
      await b.unlock('bindery!');
      expect(await a.tryLock('bindery!')).toBe(true);
      await a.unlock('bindery!');
      // A name longer than the server's 64 characters still works (hashed).
      const long = 'x'.repeat(100);
      expect(await a.tryLock(long)).toBe(true);
      expect(await b.tryLock(long)).toBe(false);
    } finally {
      a.release(true);
      b.release();
    }
    expect(() => b.release()).toThrow(/released already/);
  });

  it('named locks carry the database: the same name on another database of the server is another lock', async () => {
    const other = await createTestMariaDatabase('engine_other');
    const second = await connectDatabase({ url: other.url });
    const a = await database.engine.connect();
    const b = await second.engine.connect();
    try {
      expect(await a.tryLock('bindery!')).toBe(true);
      expect(await b.tryLock('bindery!')).toBe(true);
    } finally {
      a.release(true);
      b.release(true);
      await second.close();
      await other.drop();
    }
  });

  it('a held connection runs statements in one session (a transaction across statements)', async () => {
    const c = await database.engine.connect();
    try {
      await c.run('BEGIN');
      await c.run('INSERT INTO items (name) VALUES (?)', ['held']);
      expect((await c.run('SELECT COUNT(*) AS n FROM items WHERE name = ?', ['held'])).rows).toEqual([{ n: 1 }]);
      expect((await database.engine.run('SELECT COUNT(*) AS n FROM items WHERE name = ?', ['held'])).rows).toEqual([{ n: 0 }]);
      await c.run('ROLLBACK');
    } finally {
      c.release();
    }
    expect((await database.engine.run('SELECT COUNT(*) AS n FROM items WHERE name = ?', ['held'])).rows).toEqual([{ n: 0 }]);
  });

  it('tableExists: in the current database, or schema-qualified', async () => {
    expect(await database.engine.tableExists('items')).toBe(true);
    expect(await database.engine.tableExists(`${testDb.name}.items`)).toBe(true);
    expect(await database.engine.tableExists('missing')).toBe(false);
    expect(await database.engine.tableExists('mysql.missing')).toBe(false);
  });

  it('poolStats: total, idle, waiting and max follow the pool', async () => {
    const small = await connectDatabase({ url: testDb.url, max: 2 });
    try {
      expect(small.engine.poolStats()).toEqual({ total: 1, idle: 1, waiting: 0, max: 2 });
      const a = await small.engine.connect();
      const b = await small.engine.connect();
      expect(small.engine.poolStats()).toEqual({ total: 2, idle: 0, waiting: 0, max: 2 });
      const third = small.engine.run('SELECT 1 AS one');
      await waitFor(() => small.engine.poolStats().waiting === 1, 'a waiting request');
      a.release();
      expect((await third).rows).toEqual([{ one: 1 }]);
      b.release();
      expect(small.engine.poolStats()).toEqual({ total: 2, idle: 2, waiting: 0, max: 2 });
    } finally {
      await small.close();
    }
  });

  it('a request waits at most connectTimeoutMs for a free connection, then fails as a lost connection (503)', async () => {
    const small = await connectDatabase({ url: testDb.url, max: 1, connectTimeoutMs: 300 });
    try {
      const held = await small.engine.connect();
      const error = await small.engine.run('SELECT 1').catch((e: unknown) => e);
      expect((error as { code?: string }).code).toBe('BINDERY_DATABASE_UNAVAILABLE');
      expect(((error as Error).cause as Error).message).toMatch(/timeout exceeded when waiting for a connection \(300 ms\)/);
      held.release();
      expect((await small.engine.run('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await small.close();
    }
  });

  it("observe: Kysely's statements, run, prepared statements and held connections are reported, without values", async () => {
    const watched = await connectDatabase({ url: testDb.url });
    const seen: Array<{ text: string; rows: number | null; failed: boolean }> = [];
    try {
      observeQueries(watched, {
        queryStarted: (text) => (rows, error) => seen.push({ text, rows, failed: error !== undefined }),
      });
      expect(() => watched.engine.observe({ queryStarted: () => undefined })).toThrow(/already has an observer/);
      await sql`SELECT ${'secret'} AS v`.execute(watched.db);
      await watched.engine.run('SELECT ? AS a, ? AS b', [1, 2]);
      await watched.engine.run('SELECT ? AS p', [3], { prepare: true });
      await watched.engine.run('SELECT nope FROM items').catch(() => {});
      const held = await watched.engine.connect();
      await held.run('INSERT INTO items (name) VALUES (?)', ['obs']);
      held.release();
      expect(seen).toEqual([
        { text: 'SELECT ? AS v', rows: 1, failed: false },
        { text: 'SELECT ? AS a, ? AS b', rows: 1, failed: false },
        { text: 'SELECT ? AS p', rows: 1, failed: false },
        { text: 'SELECT nope FROM items', rows: null, failed: true },
        { text: 'INSERT INTO items (name) VALUES (?)', rows: 1, failed: false },
      ]);
    } finally {
      await watched.close();
    }
  });

  it('an idle connection the server ended: onIdleError is told, the pool opens another', async () => {
    const errors: unknown[] = [];
    const watched = await connectDatabase({ url: testDb.url, onIdleError: (error) => errors.push(error) });
    try {
      const { rows } = await watched.engine.run<{ id: number }>('SELECT CONNECTION_ID() AS id');
      await database.engine.run(`KILL CONNECTION ${Number(rows[0]!.id)}`);
      await waitFor(() => errors.length > 0, 'the idle error');
      expect(errors[0]).toMatchObject({ code: 'PROTOCOL_CONNECTION_LOST' });
      const after = await watched.engine.run<{ id: number }>('SELECT CONNECTION_ID() AS id');
      expect(after.rows[0]!.id).not.toBe(rows[0]!.id);
    } finally {
      await watched.close();
    }
  });

  it('mysqlPoolOf: the mysql2 pool of a MySQL database', async () => {
    expect(typeof mysqlPoolOf(database).getConnection).toBe('function');
  });

  it('close: ends the pool once; later statements fail as a lost connection', async () => {
    const closing = await connectDatabase({ url: testDb.url });
    await closing.engine.run('SELECT 1');
    await Promise.all([closing.close(), closing.close()]);
    await expect(closing.engine.run('SELECT 1')).rejects.toMatchObject({ code: 'BINDERY_DATABASE_UNAVAILABLE' });
    await expect(sql`SELECT 1`.execute(closing.db)).rejects.toBeTruthy();
  });
});
