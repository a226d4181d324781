import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRead, runStatement, runTransaction, type WriteTarget } from '../../../runtime/audit/sql-runner.js';
import { connectDatabase, DatabaseUnavailableError, type Database } from '../../../runtime/db/index.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';

/** Terminates the backend running `select pg_sleep(…)` once it shows up; the number terminated. */
async function terminateSleeper(url: string): Promise<number> {
  const admin = await connectDatabase({ url, max: 1 });
  try {
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline) {
      const { rows } = await sql<{ n: number }>`select count(*) filter (where pg_terminate_backend(pid))::int as n from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and query like 'select pg_sleep%'`.execute(admin.db);
      if (rows[0]!.n > 0) return rows[0]!.n;
    }
    return 0;
  } finally {
    await admin.close();
  }
}

describe('audit writes on the pool | a lost connection', () => {
  let testDb: TestDatabase;
  let database: Database;
  let target: WriteTarget;
  beforeAll(async () => {
    testDb = await createTestDatabase('audit_lost');
    database = await connectDatabase({ url: testDb.url });
    target = { kind: 'pool', engine: database.engine };
  });
  afterAll(async () => {
    await database.close();
    await testDb.drop();
  });

  it('a statement whose backend is terminated rejects with the 503 DatabaseUnavailableError; the next one works', async () => {
    const running = runStatement(target, sql`select pg_sleep(5)`.compile(database.db)).catch((e: unknown) => e);
    expect(await terminateSleeper(testDb.url)).toBe(1);
    const error = await running;
    expect(error).toBeInstanceOf(DatabaseUnavailableError);
    expect(error).toMatchObject({ status: 503, code: 'BINDERY_DATABASE_UNAVAILABLE' });
    const { rows } = await runRead<{ one: number }>(target, sql<{ one: number }>`select 1 as one`.compile(database.db));
    expect(rows).toEqual([{ one: 1 }]);
  });

  it('a transaction whose backend is terminated rejects with the 503 and the next transaction works', async () => {
    const running = runTransaction(target, (runner) => runner.run(sql`select pg_sleep(5)`.compile(database.db))).catch((e: unknown) => e);
    expect(await terminateSleeper(testDb.url)).toBe(1);
    expect(await running).toBeInstanceOf(DatabaseUnavailableError);
    const one = await runTransaction(target, (runner) => runner.run<{ one: number }>(sql`select 1 as one`.compile(database.db)));
    expect(one.rows).toEqual([{ one: 1 }]);
  });
});
