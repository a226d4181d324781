import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatMigrationStatus } from '../../../../../runtime/cli/commands/migrate.js';
import { connectDatabase, type Database } from '../../../../../runtime/db/index.js';
import { postgresPoolOf } from '../../../../../runtime/db/engines/postgres/index.js';
import { MigrationFailedError } from '../../../../../runtime/db/migrator/errors.js';
import type { MigrationSet } from '../../../../../runtime/db/migrator/migration-set.js';
import { createMigrator, type MigrationEvent } from '../../../../../runtime/db/migrator/migrator.js';
import { createTestDatabase, type TestDatabase } from '../../../../support/database.js';

/** The advisory lock key the migrator has always held: the bytes of "bindery!" as a signed 64-bit integer. */
const LOCK_KEY = Buffer.from('bindery!').readBigInt64BE().toString();

describe('Migrator on PostgreSQL | one transaction per file, failures with SQLSTATE', () => {
  let dir: string;
  let testDb: TestDatabase;
  let database: Database;
  const extra: Database[] = [];

  const set = async (source: string, files: Record<string, string>): Promise<MigrationSet> => {
    const d = join(dir, source);
    await mkdir(d, { recursive: true });
    for (const [name, sql] of Object.entries(files)) await writeFile(join(d, name), sql);
    return { source, dir: d };
  };
  const records = async () =>
    (await postgresPoolOf(database).query<{ name: string }>('select * from bindery_migrations order by applied_at, source, name')).rows;
  const tableExists = async (name: string) =>
    (await postgresPoolOf(database).query('select to_regclass($1) as t', [name])).rows[0].t !== null;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bindery-migrations-'));
    testDb = await createTestDatabase('migrator_pg');
    database = await connectDatabase({ url: testDb.url });
  });
  afterEach(async () => {
    for (const d of extra.splice(0)) await d.close();
    await database.close();
    await testDb.drop();
    await rm(dir, { recursive: true, force: true });
  });

  it('a failing migration rolls back its whole file, records nothing, and stops the run', async () => {
    const app = await set('app', {
      '0001_ok.sql': 'create table ok (id int);',
      '0002_bad.sql': 'create table half (id int);\ninsert into half values (1);\ninsert into missing_table values (1);\n',
      '0003_later.sql': 'create table later (id int);',
    });
    const error = await createMigrator(database, [app])
      .migrate()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MigrationFailedError);
    const failed = error as MigrationFailedError;
    expect(failed.code).toBe('BINDERY_MIGRATION_FAILED');
    expect(failed.migration).toBe('app/0002_bad.sql');
    expect(failed.line).toBe(3);
    expect(failed.message).toMatch(
      /^Migration app\/0002_bad\.sql \(line 3\) failed: relation "missing_table" does not exist \(SQLSTATE 42P01\)\. Its transaction was rolled back/,
    );
    expect(await tableExists('ok')).toBe(true);
    expect(await tableExists('half')).toBe(false);
    expect(await tableExists('later')).toBe(false);
    expect((await records()).map((r) => r.name)).toEqual(['0001_ok.sql']);
  });

  it('status shows the failure of a pending migration until a run applies it', async () => {
    const app = await set('app', {
      '0001_ok.sql': 'create table t (v text);',
      '0002_check.sql': "insert into t values ('x');\nselect 1/0;",
    });
    const migrator = createMigrator(database, [app]);
    await expect(migrator.migrate()).rejects.toThrow(MigrationFailedError);
    const status = await migrator.status();
    expect(status.pending.map((p) => p.name)).toEqual(['0002_check.sql']);
    expect(status.failed).toEqual([
      {
        source: 'app',
        name: '0002_check.sql',
        error: 'division by zero (SQLSTATE 22012)',
        failedAt: expect.any(Date),
        changedSince: false,
      },
    ]);
    expect(formatMigrationStatus(status)).toMatch(
      /^app\/0001_ok\.sql {5}applied \S+\napp\/0002_check\.sql {2}pending, FAILED \d{4}-\S+: division by zero \(SQLSTATE 22012\)\n1 applied, 1 pending, 1 failed at the last run \(fix the data and migrate again, or see docs\/database\.md "When a migration fails"\)\.\n$/,
    );
    expect((await postgresPoolOf(database).query('select count(*)::int as n from t')).rows[0].n).toBe(0);

    await writeFile(join(app.dir, '0002_check.sql'), "insert into t values ('x');");
    expect((await migrator.status()).failed).toEqual([expect.objectContaining({ name: '0002_check.sql', changedSince: true })]);
    await migrator.migrate();
    const after = await migrator.status();
    expect(after.failed).toEqual([]);
    expect((await postgresPoolOf(database).query('select count(*)::int as n from bindery_migration_failures')).rows[0].n).toBe(0);
  });

  it('a runtime failure (no position from PostgreSQL) is reported without a line', async () => {
    const app = await set('app', { '0001_div.sql': 'create table d (id int);\nselect 1/0;' });
    const error = await createMigrator(database, [app])
      .migrate()
      .catch((e: unknown) => e);
    expect((error as MigrationFailedError).line).toBeUndefined();
    expect((error as Error).message).toMatch(/^Migration app\/0001_div\.sql failed: division by zero \(SQLSTATE 22012\)\./);
    expect(await tableExists('d')).toBe(false);
    expect(await tableExists('bindery_migrations')).toBe(true);
    expect(await records()).toEqual([]);
  });

  it('sends each file as begin, its text, its record, commit, under the advisory lock', async () => {
    const text = 'create table a (id int);\ninsert into a values (1);';
    const app = await set('app', { '0001_a.sql': text });
    const sent: string[] = [];
    database.engine.observe({
      queryStarted: (sql) => {
        sent.push(sql.replace(/\s+/g, ' ').trim());
        return undefined;
      },
    });
    await createMigrator(database, [app]).migrate();
    expect(sent).toEqual([
      'select pg_try_advisory_lock($1::bigint) as ok',
      'create table if not exists bindery_migrations ( source text not null, name text not null, checksum text not null, applied_at timestamptz not null default now(), primary key (source, name) )',
      'create table if not exists bindery_migration_failures ( source text not null, name text not null, checksum text not null, error text not null, failed_at timestamptz not null default now(), primary key (source, name) )',
      'select source, name, checksum, applied_at from bindery_migrations where source in ($1) order by applied_at, source, name',
      'select source, name, checksum, error, failed_at from bindery_migration_failures where source in ($1)',
      'begin',
      text.replace(/\s+/g, ' '),
      'insert into bindery_migrations (source, name, checksum) values ($1, $2, $3)',
      'delete from bindery_migration_failures where source = $1 and name = $2',
      'commit',
      'select pg_advisory_unlock($1::bigint)',
    ]);
  });

  it('holds the advisory lock keyed by the bytes of "bindery!" while it migrates, and gives it back', async () => {
    const app = await set('app', { '0001_slow.sql': 'select pg_sleep(0.4);' });
    const events: MigrationEvent['kind'][] = [];
    const running = createMigrator(database, [app]).migrate({ onProgress: (e) => events.push(e.kind) });
    const deadline = Date.now() + 10_000;
    while (!events.includes('applying')) {
      if (Date.now() > deadline) throw new Error('the migrate did not start');
      await new Promise((r) => setTimeout(r, 10));
    }
    const other = await connectDatabase({ url: testDb.url });
    extra.push(other);
    const tryLock = async () =>
      (await postgresPoolOf(other).query<{ ok: boolean }>('select pg_try_advisory_lock($1::bigint) as ok', [LOCK_KEY])).rows[0]!.ok;
    expect(await tryLock()).toBe(false);
    await running;
    const client = await postgresPoolOf(other).connect();
    try {
      const got = await client.query<{ ok: boolean }>('select pg_try_advisory_lock($1::bigint) as ok', [LOCK_KEY]);
      expect(got.rows[0]!.ok).toBe(true);
    } finally {
      client.release(true);
    }
  });
});
