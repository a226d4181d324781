/**
 * The engine switch of bindery/testing (docs/testing.md "On MariaDB or
 * MySQL"): `BINDERY_TEST_ENGINE` picks the server `createTestDatabase()`
 * makes its databases on — PostgreSQL by default, MariaDB (utf8mb4,
 * utf8mb4_bin) with `mariadb` — a server URL's scheme picks it by itself,
 * and `startTestServer({ engine: 'mariadb' })` uses `MARIADB_URL`.
 */
import { sql } from 'kysely';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, startTestServer, testEngine } from 'bindery/testing';
import { connectDatabase } from '../../../runtime/db/index.js';

const saved = { ...process.env };
afterEach(() => {
  for (const name of ['BINDERY_TEST_ENGINE', 'BINDERY_TEST_MARIADB_URL', 'MARIADB_URL', 'DATABASE_URL']) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

/** The engine's name, the database's collation and whether it is there, read over a connection to `url`. */
async function probe(url: string): Promise<{ engine: string; collation: string | undefined }> {
  const database = await connectDatabase({ url, max: 1 });
  try {
    if (database.engine.name === 'postgres') return { engine: 'postgres', collation: undefined };
    const { rows } = await sql<{ collation: string }>`select @@collation_database as collation`.execute(database.db);
    return { engine: database.engine.name, collation: rows[0]?.collation };
  } finally {
    await database.close();
  }
}

describe('bindery/testing | BINDERY_TEST_ENGINE', () => {
  it('is postgres unless set; mariadb when it says so; anything else is refused, naming the values', () => {
    expect(testEngine({})).toBe('postgres');
    expect(testEngine({ BINDERY_TEST_ENGINE: '' })).toBe('postgres');
    expect(testEngine({ BINDERY_TEST_ENGINE: 'MariaDB' })).toBe('mariadb');
    expect(() => testEngine({ BINDERY_TEST_ENGINE: 'sqlite' })).toThrow(/takes postgres or mariadb/);
  });

  it('makes a utf8mb4_bin database on the MariaDB of BINDERY_TEST_MARIADB_URL, and drops it', async () => {
    process.env['BINDERY_TEST_ENGINE'] = 'mariadb';
    process.env['BINDERY_TEST_MARIADB_URL'] = inject('mariadbUrl');
    const database = await createTestDatabase({ prefix: 'engine_switch' });
    expect(database.engine).toBe('mariadb');
    expect(database.url).toMatch(/^mariadb:\/\/.*\/engine_switch_[0-9a-f]{12}$/);
    expect(await probe(database.url)).toEqual({ engine: 'mariadb', collation: 'utf8mb4_bin' });
    await database.drop();
    await expect(probe(database.url)).rejects.toThrow();
    await database.drop();
  });

  it('follows the scheme of a serverUrl given, whatever the variable says', async () => {
    process.env['BINDERY_TEST_ENGINE'] = 'mariadb';
    const onPostgres = await createTestDatabase({ serverUrl: inject('pgUrl'), prefix: 'by_scheme' });
    try {
      expect(onPostgres.engine).toBe('postgres');
      expect((await probe(onPostgres.url)).engine).toBe('postgres');
    } finally {
      await onPostgres.drop();
    }
    delete process.env['BINDERY_TEST_ENGINE'];
    const onMariadb = await createTestDatabase({ serverUrl: inject('mariadbUrl'), prefix: 'by_scheme' });
    try {
      expect(onMariadb.engine).toBe('mariadb');
      expect((await probe(onMariadb.url)).engine).toBe('mariadb');
    } finally {
      await onMariadb.drop();
    }
  });

  it('says which variable to set when the engine has no server', async () => {
    process.env['BINDERY_TEST_ENGINE'] = 'mariadb';
    delete process.env['BINDERY_TEST_MARIADB_URL'];
    delete process.env['MARIADB_URL'];
    await expect(createTestDatabase()).rejects.toThrow(/no MariaDB server for tests: set MARIADB_URL/);
  });

  it('startTestServer on MariaDB uses MARIADB_URL and leaves it alone', async () => {
    process.env['MARIADB_URL'] = inject('mariadbUrl');
    const server = await startTestServer({ engine: 'mariadb' });
    expect(server).toMatchObject({ url: inject('mariadbUrl'), engine: 'mariadb', embedded: false });
    expect(process.env['BINDERY_TEST_MARIADB_URL']).toBe(inject('mariadbUrl'));
    await server.stop();
  });

  it("startTestServer on MariaDB: the test workers' engine (unless set), and DATABASE_URL's server when MARIADB_URL is unset", async () => {
    delete process.env['BINDERY_TEST_ENGINE'];
    delete process.env['MARIADB_URL'];
    const server = new URL(inject('mariadbUrl'));
    process.env['DATABASE_URL'] = `mysql://${server.username}@${server.host}/the_app_database`;
    const started = await startTestServer({ engine: 'mariadb' });
    expect(started).toMatchObject({ url: `mysql://${server.username}@${server.host}`, engine: 'mariadb', embedded: false });
    expect(process.env['BINDERY_TEST_ENGINE']).toBe('mariadb');
    const db = await createTestDatabase();
    try {
      expect(await probe(db.url)).toEqual({ engine: 'mariadb', collation: 'utf8mb4_bin' });
    } finally {
      await db.drop();
    }
  });
});
