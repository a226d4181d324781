import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../../../../../runtime/db/connect.js';
import {
  databaseErrorOf,
  isCheckViolation,
  isForeignKeyViolation,
  isSerializationFailure,
  isUndefinedTable,
  isUniqueViolation,
} from '../../../../../runtime/db/database-errors.js';
import { classifyMysqlError } from '../../../../../runtime/db/engines/mysql/errors.js';
import { DatabaseReadOnlyError, DatabaseUnavailableError } from '../../../../../runtime/db/unavailable.js';
import { createTestMariaDatabase, onMariaServer, type TestDatabase } from '../../../../support/database.js';
import { inject } from 'vitest';

const failure = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );

describe('MySQL engine | errors by kind, from a real MariaDB', () => {
  let testDb: TestDatabase;
  let database: Database;
  beforeAll(async () => {
    testDb = await createTestMariaDatabase('errors');
    database = await connectDatabase({ url: testDb.url });
    for (const statement of [
      'CREATE TABLE users (id BIGINT AUTO_INCREMENT PRIMARY KEY, email VARCHAR(100) NOT NULL, age INT, CONSTRAINT users_email_key UNIQUE (email), CONSTRAINT users_age_check CHECK (age >= 0))',
      'CREATE TABLE posts (id BIGINT AUTO_INCREMENT PRIMARY KEY, user_id BIGINT NOT NULL, CONSTRAINT posts_user_id_fkey FOREIGN KEY (user_id) REFERENCES users (id))',
      "INSERT INTO users (id, email) VALUES (1, 'a@example.com'), (2, 'b@example.com')",
      'INSERT INTO posts (user_id) VALUES (1)',
    ])
      await database.engine.run(statement);
  });
  afterAll(async () => {
    await database?.close();
    await testDb?.drop();
  });

  it('a duplicate key names its unique key (engine.classify, isUniqueViolation with the name)', async () => {
    const error = await failure(
      database.db
        .insertInto('users' as never)
        .values({ email: 'a@example.com' } as never)
        .execute(),
    );
    expect(database.engine.classify(error)).toEqual({ kind: 'unique-violation', constraint: 'users_email_key' });
    expect(isUniqueViolation(error)).toBe(true);
    expect(isUniqueViolation(error, 'users_email_key')).toBe(true);
    expect(isUniqueViolation(error, 'other_key')).toBe(false);
    const primary = await failure(database.engine.run("INSERT INTO users (id, email) VALUES (1, 'c@example.com')"));
    expect(databaseErrorOf(primary)).toEqual({ kind: 'unique-violation', constraint: 'PRIMARY' });
  });

  it('foreign keys: a missing parent and a referenced row, with the constraint', async () => {
    const missing = await failure(database.engine.run('INSERT INTO posts (user_id) VALUES (99)'));
    expect(databaseErrorOf(missing)).toEqual({ kind: 'foreign-key-violation', constraint: 'posts_user_id_fkey' });
    const referenced = await failure(database.engine.run('DELETE FROM users WHERE id = 1'));
    expect(isForeignKeyViolation(referenced, 'posts_user_id_fkey')).toBe(true);
  });

  it('a CHECK constraint (MariaDB errno 4025), with its name', async () => {
    const error = await failure(database.engine.run('UPDATE users SET age = -1 WHERE id = 2'));
    expect(databaseErrorOf(error)).toEqual({ kind: 'check-violation', constraint: 'users_age_check' });
    expect(isCheckViolation(error, 'users_age_check')).toBe(true);
  });

  it('NOT NULL: a null given, or a column without default left out', async () => {
    const given = await failure(database.engine.run('INSERT INTO users (email) VALUES (NULL)'));
    expect(databaseErrorOf(given)).toEqual({ kind: 'not-null-violation' });
    const left = await failure(database.engine.run('INSERT INTO users (age) VALUES (3)'));
    expect(databaseErrorOf(left)).toEqual({ kind: 'not-null-violation' });
  });

  it('an undefined table', async () => {
    const error = await failure(sql`SELECT * FROM missing_table`.execute(database.db));
    expect(isUndefinedTable(error)).toBe(true);
  });

  it('a deadlock the server broke: a transaction to run again (isSerializationFailure)', async () => {
    const a = await database.engine.connect();
    const b = await database.engine.connect();
    try {
      await a.run('BEGIN');
      await b.run('BEGIN');
      await a.run('UPDATE users SET age = 10 WHERE id = 1');
      await b.run('UPDATE users SET age = 20 WHERE id = 2');
      const first = a.run('UPDATE users SET age = 11 WHERE id = 2').then(
        () => undefined,
        (e: unknown) => e,
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      const second = await b.run('UPDATE users SET age = 21 WHERE id = 1').then(
        () => undefined,
        (e: unknown) => e,
      );
      const errors = [await first, second].filter((e) => e !== undefined);
      expect(errors).toHaveLength(1);
      expect(databaseErrorOf(errors[0])).toEqual({ kind: 'deadlock' });
      expect(isSerializationFailure(errors[0])).toBe(true);
    } finally {
      await a.run('ROLLBACK').catch(() => {});
      await b.run('ROLLBACK').catch(() => {});
      a.release();
      b.release();
    }
  });

  it('a write in a read-only transaction: kind read-only, answered as DatabaseReadOnlyError by Kysely and run', async () => {
    const error = await failure(
      database.db
        .transaction()
        .setAccessMode('read only')
        .execute((trx) =>
          trx
            .insertInto('users' as never)
            .values({ email: 'ro@example.com' } as never)
            .execute(),
        ),
    );
    expect(error).toBeInstanceOf(DatabaseReadOnlyError);
    expect(databaseErrorOf(error)).toEqual({ kind: 'read-only' });
  });

  it("readOnlyReason: undefined on a writable server; a read-only session says so (the tests of the server's read-only state share this file, so they run one after the other)", async () => {
    expect(await database.engine.readOnlyReason()).toBeUndefined();
    const readOnly = await connectDatabase({ url: testDb.url, max: 1 });
    try {
      await readOnly.engine.run('SET SESSION TRANSACTION READ ONLY');
      expect(await readOnly.engine.readOnlyReason()).toBe('read-only (transaction_read_only = ON): writes are answered 503');
    } finally {
      await readOnly.close();
    }
  });

  it('a read_only server: readOnlyReason says so; a write by a user without the privilege to bypass it fails (errno 1290)', async () => {
    const user = `ro_${testDb.name.slice(-6)}`;
    const server = inject('mariadbUrl');
    await onMariaServer(server, `CREATE USER '${user}'@'127.0.0.1' IDENTIFIED BY 'secret'`);
    await onMariaServer(server, `GRANT SELECT, INSERT ON \`${testDb.name}\`.* TO '${user}'@'127.0.0.1'`);
    const url = new URL(testDb.url);
    url.username = user;
    url.password = 'secret';
    const limited = await connectDatabase({ url: url.toString() });
    try {
      // The server's read_only is turned on by this test only (the files of a run share the server).
      await onMariaServer(server, 'SET GLOBAL read_only = 1');
      const error = await failure(limited.engine.run("INSERT INTO users (email) VALUES ('ro2@example.com')"));
      expect(error).toBeInstanceOf(DatabaseReadOnlyError);
      expect(((error as Error).cause as { errno?: number }).errno).toBe(1290);
      expect(await database.engine.readOnlyReason()).toBe('read-only (read_only = ON): writes are answered 503');
    } finally {
      await onMariaServer(server, 'SET GLOBAL read_only = 0');
      await limited.close();
      await onMariaServer(server, `DROP USER '${user}'@'127.0.0.1'`);
    }
    expect(await database.engine.readOnlyReason()).toBeUndefined();
  });

  it('a connection killed mid-query: 503 DatabaseUnavailableError (mysql2 error as cause); the next query works', async () => {
    const running = failure(sql`SELECT SLEEP(5) AS s`.execute(database.db));
    let id: number | undefined;
    for (let i = 0; i < 50 && id === undefined; i++) {
      const { rows } = await database.engine.run<{ id: number }>(
        "SELECT id FROM information_schema.processlist WHERE info LIKE 'SELECT SLEEP(5)%' AND db = DATABASE()",
      );
      id = rows[0]?.id;
      if (id === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(id).toBeDefined();
    await database.engine.run(`KILL CONNECTION ${Number(id)}`);
    const error = await running;
    expect(error).toBeInstanceOf(DatabaseUnavailableError);
    expect(databaseErrorOf(error)).toEqual({ kind: 'connection-lost' });
    expect((await sql<{ one: number }>`SELECT 1 AS one`.execute(database.db)).rows).toEqual([{ one: 1 }]);
  });

  it('a server that refuses the connection: 503 on a query, connection-lost by kind', async () => {
    const url = new URL(testDb.url);
    url.port = '1';
    const down = await connectDatabase({ url: url.toString(), verify: false, connectTimeoutMs: 2000 });
    try {
      const error = await failure(sql`SELECT 1`.execute(down.db));
      expect(error).toBeInstanceOf(DatabaseUnavailableError);
      expect(databaseErrorOf(error)).toEqual({ kind: 'connection-lost' });
    } finally {
      await down.close();
    }
  });
});

describe('classifyMysqlError | MySQL 8 messages and what is not a MySQL error', () => {
  const server = (errno: number, message: string) => Object.assign(new Error(message), { errno, sqlState: '23000', sqlMessage: message });

  it("MySQL 8.0.19+ prefixes the key with its table; the key's own name is kept", () => {
    expect(classifyMysqlError(server(1062, "Duplicate entry 'a@x' for key 'users.users_email_key'"))).toEqual({
      kind: 'unique-violation',
      constraint: 'users_email_key',
    });
    expect(classifyMysqlError(server(1062, "Duplicate entry 'it''s for key 'x'' for key 'users_email_key'"))).toEqual({
      kind: 'unique-violation',
      constraint: 'users_email_key',
    });
  });

  it("MySQL's CHECK (3819) is named; errno 4025 is a CHECK only with MariaDB's message", () => {
    expect(classifyMysqlError(server(3819, "Check constraint 'users_age_check' is violated."))).toEqual({
      kind: 'check-violation',
      constraint: 'users_age_check',
    });
    expect(classifyMysqlError(server(4025, 'Innodb autoextend size is out of range'))).toBeUndefined();
  });

  it('1290 is read-only only for the read-only options', () => {
    expect(
      classifyMysqlError(server(1290, 'The MySQL server is running with the --super-read-only option so it cannot execute this statement')),
    ).toEqual({
      kind: 'read-only',
    });
    expect(classifyMysqlError(server(1290, 'The MySQL server is running with the --secure-file-priv option'))).toBeUndefined();
  });

  it("mysql2's and the socket's connection errors; pg's errors are not MySQL's", () => {
    expect(
      classifyMysqlError(
        Object.assign(new Error('Connection lost: The server closed the connection.'), { code: 'PROTOCOL_CONNECTION_LOST', fatal: true }),
      ),
    ).toEqual({
      kind: 'connection-lost',
    });
    expect(classifyMysqlError(new Error("Can't add new command when connection is in closed state"))).toEqual({ kind: 'connection-lost' });
    expect(classifyMysqlError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED', errno: -111 }))).toEqual({
      kind: 'connection-lost',
    });
    expect(classifyMysqlError(Object.assign(new Error('duplicate key value'), { code: '23505', constraint: 'x' }))).toBeUndefined();
    expect(classifyMysqlError('not an error')).toBeUndefined();
  });
});
