import { describe, expect, inject, it } from 'vitest';
import { connectDatabase } from '../../../../../runtime/db/connect.js';
import { checkServer, mysqlServerOf, type ProbedSettings } from '../../../../../runtime/db/engines/mysql/server-checks.js';
import { createTestMariaDatabase, onMariaServer } from '../../../../support/database.js';

const failure = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );

describe('connectDatabase | mysql:// and mariadb:// URLs', () => {
  it.each(['mariadb', 'mysql'] as const)('%s:// opens the MySQL engine, probed as the MariaDB it is', async (scheme) => {
    const testDb = await createTestMariaDatabase('connect', { scheme });
    expect(testDb.url.startsWith(`${scheme}://`)).toBe(true);
    const database = await connectDatabase({ url: testDb.url });
    try {
      expect(database.engine.name).toBe('mariadb');
      expect(database.displayUrl).toBe(testDb.url);
      await expect(database.ping()).resolves.toBeUndefined();
    } finally {
      await database.close();
      await testDb.drop();
    }
  });

  it('a database not in utf8mb4 stops the connect with BINDERY_DATABASE_CHARSET_UNSUPPORTED naming the fix', async () => {
    const testDb = await createTestMariaDatabase('latin', { charset: 'latin1' });
    try {
      const error = await failure(connectDatabase({ url: testDb.url }));
      expect(error).toMatchObject({ code: 'BINDERY_DATABASE_CHARSET_UNSUPPORTED' });
      expect((error as Error).message).toContain(`stores text as latin1 (latin1_swedish_ci)`);
      expect((error as Error).message).toContain(`ALTER DATABASE \`${testDb.name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
    } finally {
      await testDb.drop();
    }
  });

  it("strict mode is the session's own: a server whose sql_mode is not strict still refuses a value too long", async () => {
    const testDb = await createTestMariaDatabase('strict');
    const server = inject('mariadbUrl');
    const [{ mode }] = (await onMariaServer(server, 'SELECT @@GLOBAL.sql_mode AS mode')) as [{ mode: string }];
    await onMariaServer(server, "SET GLOBAL sql_mode = ''");
    try {
      const database = await connectDatabase({ url: testDb.url });
      try {
        await database.engine.run('CREATE TABLE t (v VARCHAR(3))');
        await expect(database.engine.run("INSERT INTO t VALUES ('abcdef')")).rejects.toMatchObject({ errno: 1406 });
      } finally {
        await database.close();
      }
    } finally {
      await onMariaServer(server, `SET GLOBAL sql_mode = '${mode}'`);
      await testDb.drop();
    }
  });

  it("UTC is the session's own: on a server whose time_zone is +03:00, CURRENT_TIMESTAMP defaults and NOW() are UTC", async () => {
    const testDb = await createTestMariaDatabase('utc');
    const server = inject('mariadbUrl');
    const [{ zone }] = (await onMariaServer(server, 'SELECT @@GLOBAL.time_zone AS zone')) as [{ zone: string }];
    await onMariaServer(server, "SET GLOBAL time_zone = '+03:00'");
    try {
      const database = await connectDatabase({ url: testDb.url });
      try {
        await database.engine.run('CREATE TABLE t (id INT, at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6))');
        const before = Date.now();
        await database.engine.run('INSERT INTO t (id) VALUES (1)');
        const { rows } = await database.engine.run<{ at: Date }>('SELECT at FROM t');
        expect(Math.abs(rows[0]!.at.getTime() - before)).toBeLessThan(60_000);
      } finally {
        await database.close();
      }
    } finally {
      await onMariaServer(server, `SET GLOBAL time_zone = '${zone}'`);
      await testDb.drop();
    }
  });

  it('bad credentials: BINDERY_DATABASE_UNREACHABLE with the server reason and MySQL advice, password hidden', async () => {
    const testDb = await createTestMariaDatabase('creds');
    const url = new URL(testDb.url);
    url.username = 'nobody';
    url.password = 'wrong-secret';
    try {
      const error = await failure(connectDatabase({ url: url.toString() }));
      expect(error).toMatchObject({ code: 'BINDERY_DATABASE_UNREACHABLE' });
      expect((error as Error).message).toMatch(/Access denied for user 'nobody'/);
      expect((error as Error).message).toContain('MySQL or MariaDB server is up');
      expect((error as Error).message).not.toContain('wrong-secret');
    } finally {
      await testDb.drop();
    }
  });

  it.each([
    ['sqlite:///tmp/x.db', /the scheme "sqlite:" names no database engine bindery speaks.*postgres:\/\/.*mysql:\/\/ \(or mariadb:\/\/\)/],
    ['mysql://root@127.0.0.1:3306/', /the URL names no database/],
    ['mysql://root@127.0.0.1:3306/app?charset=latin1', /the URL parameter "charset" is not one bindery reads/],
    ['mysql://root@127.0.0.1:3306/app?ssl=maybe', /ssl=maybe is neither true nor false/],
  ])('%s is refused before any connection', async (url, message) => {
    const error = await failure(connectDatabase({ url }));
    expect(error).toMatchObject({ code: 'BINDERY_DATABASE_UNREACHABLE' });
    expect((error as Error).message).toMatch(message);
  });
});

describe('checkServer | versions, character set and sql_mode', () => {
  const ok: ProbedSettings = {
    version: '10.11.9-MariaDB',
    charset: 'utf8mb4',
    collation: 'utf8mb4_bin',
    sqlMode: 'STRICT_ALL_TABLES',
    database: 'app',
  };
  const url = 'mysql://app:***@db:3306/app';

  it.each([
    ['8.0.16', 'mysql', [8, 0, 16]],
    ['8.4.2-log', 'mysql', [8, 4, 2]],
    ['10.6.0-MariaDB', 'mariadb', [10, 6, 0]],
    ['5.5.5-10.11.6-MariaDB-log', 'mariadb', [10, 11, 6]],
    ['11.4.2-MariaDB-ubu2404', 'mariadb', [11, 4, 2]],
  ])('%s is %s %j and accepted', (version, name, parts) => {
    expect(mysqlServerOf(version)).toEqual({ name, version: parts });
    expect(checkServer({ ...ok, version }, url).name).toBe(name);
  });

  it.each([
    ['8.0.15', 'runs MySQL 8.0.15; bindery needs MySQL 8.0.16 or later (CHECK constraints'],
    ['5.7.44-log', 'runs MySQL 5.7.44-log; bindery needs MySQL 8.0.16 or later'],
    ['10.5.25-MariaDB', 'runs MariaDB 10.5.25-MariaDB; bindery needs MariaDB 10.6.0 or later (FOR UPDATE SKIP LOCKED'],
    ['5.5.5-10.4.34-MariaDB', 'runs MariaDB 5.5.5-10.4.34-MariaDB; bindery needs MariaDB 10.6.0 or later'],
    ['unknown', 'runs MySQL "unknown" (not a version)'],
  ])('%s stops the boot with BINDERY_DATABASE_VERSION_UNSUPPORTED', (version, message) => {
    let error: unknown;
    try {
      checkServer({ ...ok, version }, url);
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'BINDERY_DATABASE_VERSION_UNSUPPORTED' });
    expect((error as Error).message).toContain(`The database at ${url} ${message}`);
  });

  it('a session not strict, or with NO_BACKSLASH_ESCAPES, stops the boot with BINDERY_DATABASE_SQL_MODE_UNSAFE', () => {
    expect(() => checkServer({ ...ok, sqlMode: 'NO_ENGINE_SUBSTITUTION' }, url)).toThrow(
      /run with sql_mode "NO_ENGINE_SUBSTITUTION": it is not strict/,
    );
    expect(() => checkServer({ ...ok, sqlMode: 'STRICT_TRANS_TABLES,NO_BACKSLASH_ESCAPES' }, url)).toThrow(/NO_BACKSLASH_ESCAPES/);
    expect(checkServer({ ...ok, sqlMode: 'STRICT_TRANS_TABLES' }, url).name).toBe('mariadb');
    expect(() => checkServer({ ...ok, sqlMode: '' }, url)).toThrow(expect.objectContaining({ code: 'BINDERY_DATABASE_SQL_MODE_UNSAFE' }));
  });

  it('utf8mb3 (or latin1) stops the boot with BINDERY_DATABASE_CHARSET_UNSUPPORTED', () => {
    expect(() => checkServer({ ...ok, charset: 'utf8mb3', collation: 'utf8mb3_general_ci' }, url)).toThrow(
      /The database "app" at mysql:\/\/app:\*\*\*@db:3306\/app stores text as utf8mb3 \(utf8mb3_general_ci\)/,
    );
  });
});
