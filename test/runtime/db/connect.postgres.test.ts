import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, DatabaseUnavailableError, UnsafeIntegerError, type Database } from '../../../runtime/db/index.js';
import { isConnectionFailure } from '../../../runtime/db/unavailable.js';
import { DatabaseUnreachableError } from '../../../runtime/db/errors.js';
import { createDatabaseIfMissing, withDatabaseName } from '../../../runtime/db/engines/postgres/server.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { freePort } from '../../../runtime/support/free-port.js';
import { waitFor } from '../jobs/wait-for.js';
import { postgresPoolOf } from '../../../runtime/db/engines/postgres/index.js';

describe('connectDatabase | Kysely over pg with bindery type parsers', () => {
  let testDb: TestDatabase;
  let database: Database;
  beforeAll(async () => {
    testDb = await createTestDatabase('connect');
    database = await connectDatabase({ url: testDb.url });
  });
  afterAll(async () => {
    await database.close();
    await testDb.drop();
  });

  it('reads int8 as a number, int8[] as numbers, numeric as text', async () => {
    const { rows } = await sql<{ n: number; max: number; min: number; arr: number[][]; count: number; dec: string }>`
      select 42::int8 as n, 9007199254740991::int8 as max, -9007199254740991::int8 as min,
             array[[1, 2], [3, null]]::int8[] as arr, (select count(*) from generate_series(1, 3)) as count, 1.50::numeric as dec`.execute(
      database.db,
    );
    expect(rows[0]).toEqual({
      n: 42,
      max: 9007199254740991,
      min: -9007199254740991,
      arr: [
        [1, 2],
        [3, null],
      ],
      count: 3,
      dec: '1.50',
    });
  });

  it('refuses an unsafe int8 instead of losing precision; the pool keeps working', async () => {
    const error = await sql`select 9007199254740993::int8 as n`.execute(database.db).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsafeIntegerError);
    expect((error as UnsafeIntegerError).code).toBe('BINDERY_INTEGER_UNSAFE');
    expect((error as Error).message).toContain('9007199254740993');
    await expect(sql`select array[9007199254740993]::int8[] as a`.execute(database.db)).rejects.toBeInstanceOf(UnsafeIntegerError);
    await expect(database.ping()).resolves.toBeUndefined();
  });

  it("does not change pg's global parsers", async () => {
    const pg = (await import('pg')).default;
    expect(pg.types.getTypeParser(20, 'text')('12')).toBe('12');
  });

  it('a backend terminated mid-query: 503 DatabaseUnavailableError (pg error as cause), no crash, the next query works', async () => {
    const running = sql`select pg_sleep(5)`.execute(database.db).catch((e: unknown) => e);
    const admin = await connectDatabase({ url: testDb.url, max: 1 });
    try {
      const deadline = Date.now() + 5000;
      let killed = 0;
      while (killed === 0 && Date.now() < deadline) {
        const { rows } = await sql<{ n: number }>`select count(*) filter (where pg_terminate_backend(pid))::int as n from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid() and query like 'select pg_sleep%'`.execute(admin.db);
        killed = rows[0]!.n;
      }
      expect(killed).toBe(1);
    } finally {
      await admin.close();
    }
    const error = await running;
    expect(error).toBeInstanceOf(DatabaseUnavailableError);
    expect(error).toMatchObject({ status: 503, code: 'BINDERY_DATABASE_UNAVAILABLE', headers: { 'retry-after': '1' } });
    expect(isConnectionFailure((error as Error).cause)).toBe(true);
    const { rows } = await sql<{ one: number }>`select 1 as one`.execute(database.db);
    expect(rows).toEqual([{ one: 1 }]);
  });

  it('query errors are not connection failures: they pass unchanged', async () => {
    const error = await sql`select 1/0`.execute(database.db).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(DatabaseUnavailableError);
    expect(error).toMatchObject({ code: '22012' });
    expect(isConnectionFailure(error)).toBe(false);
    expect(isConnectionFailure(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isConnectionFailure(new Error('Connection terminated unexpectedly'))).toBe(true);
  });

  it('close() is idempotent', async () => {
    const d = await connectDatabase({ url: testDb.url });
    await Promise.all([d.close(), d.close()]);
  });

  it('close() ends the pool when only the pool was used (no Kysely query): no idle connection is left', async () => {
    const d = await connectDatabase({ url: testDb.url, applicationName: 'bindery:close-test' });
    await postgresPoolOf(d).query('select 1'); // as the migrator does
    await d.close();
    expect(postgresPoolOf(d).ended).toBe(true);
    expect(postgresPoolOf(d).totalCount).toBe(0);
    // The server lists a backend until it has seen its connection close.
    const left = async () =>
      (
        await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where application_name = 'bindery:close-test'`.execute(
          database.db,
        )
      ).rows[0]!.n;
    await waitFor(async () => (await left()) === 0, 'the closed connections to leave pg_stat_activity');
  });

  it('close() resolves once every connection has ended, so a server stopped right after ends no session', async () => {
    const d = await connectDatabase({ url: testDb.url });
    const acquired = new Set<{ once(event: 'end', listener: () => void): unknown }>();
    postgresPoolOf(d).on('acquire', (client) => acquired.add(client));
    await Promise.all([1, 2, 3].map(() => sql`select pg_sleep(0.05)`.execute(d.db))); // three connections, now idle
    const clients = [...acquired];
    expect(clients).toHaveLength(3);
    let ended = 0;
    for (const client of clients) client.once('end', () => ended++);
    await d.close();
    expect(ended).toBe(3);
  });

  it('an idle connection failing while the database closes is not reported as lost (the app is ending it)', async () => {
    const lost: Error[] = [];
    const d = await connectDatabase({ url: testDb.url, onIdleError: (error) => lost.push(error) });
    const client = await postgresPoolOf(d).connect();
    client.release(); // idle in the pool, its error listener (the pool's) attached
    const closing = d.close();
    client.emit('error', Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }));
    await closing;
    expect(lost).toEqual([]);
    // Before close(), the same failure is reported.
    const e = await connectDatabase({ url: testDb.url, onIdleError: (error) => lost.push(error) });
    const idle = await postgresPoolOf(e).connect();
    idle.release();
    idle.emit('error', Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }));
    await e.close();
    expect(lost.map((error) => (error as { code?: string }).code)).toEqual(['57P01']);
  });

  it('an unreachable server gives a coded error naming the URL without its password', async () => {
    const port = await freePort();
    const error = await connectDatabase({ url: `postgres://me:hunter2@127.0.0.1:${port}/x`, connectTimeoutMs: 2000 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DatabaseUnreachableError);
    expect((error as Error).message).toContain(`postgres://me:***@127.0.0.1:${port}/x`);
    expect((error as Error).message).not.toContain('hunter2');
  });

  it('createDatabaseIfMissing creates once', async () => {
    const name = `${testDb.name}_extra`;
    const serverUrl = testDb.url;
    expect(await createDatabaseIfMissing(serverUrl, name)).toBe(true);
    expect(await createDatabaseIfMissing(serverUrl, name)).toBe(false);
    const d = await connectDatabase({ url: withDatabaseName(serverUrl, name) });
    await d.close();
    const admin = await connectDatabase({ url: serverUrl });
    await sql`drop database ${sql.id(name)} with (force)`.execute(admin.db);
    await admin.close();
  });
});
