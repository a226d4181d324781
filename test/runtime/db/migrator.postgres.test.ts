import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../../../runtime/db/index.js';
import { printMigrationProgress } from '../../../runtime/db/migrator/progress.js';
import { MigrationChangedError, MigrationEngineMissingError, MigrationSetError } from '../../../runtime/db/migrator/errors.js';
import { formatMigrationStatus } from '../../../runtime/cli/commands/migrate.js';
import { migrationChecksum, type MigrationSet } from '../../../runtime/db/migrator/migration-set.js';
import { createMigrator, type MigrationEvent } from '../../../runtime/db/migrator/migrator.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { postgresPoolOf } from '../../../runtime/db/engines/postgres/index.js';

interface Row {
  source: string;
  name: string;
  checksum: string;
  applied_at: Date;
}

describe('Migrator | against real PostgreSQL', () => {
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
    (await postgresPoolOf(database).query<Row>('select * from bindery_migrations order by applied_at, source, name')).rows;
  const tableExists = async (name: string) =>
    (await postgresPoolOf(database).query('select to_regclass($1) as t', [name])).rows[0].t !== null;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bindery-migrations-'));
    testDb = await createTestDatabase('migrator');
    database = await connectDatabase({ url: testDb.url });
  });
  afterEach(async () => {
    for (const d of extra.splice(0)) await d.close();
    await database.close();
    await testDb.drop();
    await rm(dir, { recursive: true, force: true });
  });

  it('applies sets in order, files in name order, each recorded with its source and checksum', async () => {
    const app = await set('app', {
      '0002_add_body.sql': 'alter table notes add column body text;',
      '0001_create_notes.sql': 'create table notes (id bigint primary key, title text not null);',
      'README.md': 'not a migration',
    });
    const plugin = await set('mailprovider', {
      '0001_create_suppressions.sql': 'create table mailprovider_suppressions (email text primary key);',
    });
    const events: MigrationEvent[] = [];
    const result = await createMigrator(database, [app, plugin]).migrate({ onProgress: (e) => events.push(e) });

    expect(result.applied.map((a) => `${a.source}/${a.name}`)).toEqual([
      'app/0001_create_notes.sql',
      'app/0002_add_body.sql',
      'mailprovider/0001_create_suppressions.sql',
    ]);
    const rows = await records();
    expect(rows.map((r) => [r.source, r.name])).toEqual([
      ['app', '0001_create_notes.sql'],
      ['app', '0002_add_body.sql'],
      ['mailprovider', '0001_create_suppressions.sql'],
    ]);
    expect(rows[0]!.checksum).toBe(migrationChecksum('create table notes (id bigint primary key, title text not null);'));
    expect(rows.every((r) => r.applied_at instanceof Date)).toBe(true);
    expect(await tableExists('notes')).toBe(true);
    expect(events.map((e) => e.kind)).toEqual(['applying', 'applied', 'applying', 'applied', 'applying', 'applied']);
    const pk = await postgresPoolOf(database).query(`select array_agg(a.attname::text order by a.attnum) as cols from pg_index i
      join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey) where i.indrelid = 'bindery_migrations'::regclass and i.indisprimary`);
    expect(pk.rows[0].cols).toEqual(['source', 'name']);
  });

  it('is idempotent: a second run applies nothing; pending() reflects the state', async () => {
    const app = await set('app', { '0001_a.sql': 'create table a (id int);', '0002_b.sql': 'create table b (id int);' });
    const migrator = createMigrator(database, [app]);
    expect((await migrator.pending()).map((f) => f.name)).toEqual(['0001_a.sql', '0002_b.sql']);
    await migrator.migrate();
    expect(await migrator.pending()).toEqual([]);
    expect((await migrator.migrate()).applied).toEqual([]);
    expect(await records()).toHaveLength(2);
    await writeFile(join(app.dir, '0003_c.sql'), 'create table c (id int);');
    expect((await migrator.pending()).map((f) => f.name)).toEqual(['0003_c.sql']);
    expect((await migrator.migrate()).applied.map((a) => a.name)).toEqual(['0003_c.sql']);
  });

  it('reports an applied file whose checksum changed, naming the file, and applies nothing', async () => {
    const app = await set('app', { '0001_a.sql': 'create table a (id int);' });
    const migrator = createMigrator(database, [app]);
    await migrator.migrate();
    await writeFile(join(app.dir, '0001_a.sql'), 'create table a (id bigint);');
    await writeFile(join(app.dir, '0002_b.sql'), 'create table b (id int);');

    const error = await migrator.migrate().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MigrationChangedError);
    expect((error as MigrationChangedError).code).toBe('BINDERY_MIGRATION_CHANGED');
    expect((error as Error).message).toContain(`${join(app.dir, '0001_a.sql')}: applied `);
    expect((error as MigrationChangedError).migrations).toEqual(['app/0001_a.sql']);
    expect(await tableExists('b')).toBe(false);
    const status = await migrator.status();
    expect(status.changed.map((f) => f.name)).toEqual(['0001_a.sql']);
    expect(status.pending.map((f) => f.name)).toEqual(['0002_b.sql']);
  });

  it('line endings and a BOM do not change the checksum', async () => {
    expect(migrationChecksum('\uFEFFcreate table a (id int);\r\nselect 1;\r\n')).toBe(
      migrationChecksum('create table a (id int);\nselect 1;\n'),
    );
  });

  it('concurrent migrate calls serialize on the advisory lock: each file applied once', async () => {
    const app = await set('app', {
      '0001_slow.sql': 'create table slow (id int);\nselect pg_sleep(0.4);\ninsert into slow values (1);',
      '0002_next.sql': 'insert into slow values (2);',
    });
    const other = await connectDatabase({ url: testDb.url });
    extra.push(other);
    const events: MigrationEvent['kind'][][] = [[], []];
    const first = createMigrator(database, [app]).migrate({ onProgress: (e) => events[0]!.push(e.kind) });
    // Start the second once the first holds the lock and is applying.
    const deadline = Date.now() + 10_000;
    while (!events[0]!.includes('applying')) {
      if (Date.now() > deadline) throw new Error('the first migrate did not start');
      await new Promise((r) => setTimeout(r, 10));
    }
    const second = createMigrator(other, [app]).migrate({ onProgress: (e) => events[1]!.push(e.kind) });
    const [a, b] = await Promise.all([first, second]);
    expect(a.applied.map((m) => m.name)).toEqual(['0001_slow.sql', '0002_next.sql']);
    expect(b.applied).toEqual([]);
    expect(events[1]).toEqual(['waiting']);
    expect((await postgresPoolOf(database).query('select id from slow order by id')).rows).toEqual([{ id: 1 }, { id: 2 }]);
    expect(await records()).toHaveLength(2);
  });

  it('prints progress lines', async () => {
    const app = await set('app', { '0001_create_notes.sql': 'create table notes (id int);' });
    let text = '';
    await createMigrator(database, [app]).migrate({
      onProgress: printMigrationProgress((t) => {
        text += t;
      }),
    });
    expect(text).toMatch(/^Applying app\/0001_create_notes\.sql … done \(\d+ ms\)\n$/);
  });

  it('a set whose folder does not exist has no migrations', async () => {
    const migrator = createMigrator(database, [{ source: 'app', dir: join(dir, 'nope') }]);
    expect(await migrator.pending()).toEqual([]);
    expect((await migrator.migrate()).applied).toEqual([]);
  });

  it('a per-engine set is read from its postgres/ folder, recorded under the same names; --status names the folder', async () => {
    const root = join(dir, 'audit');
    await mkdir(join(root, 'postgres'), { recursive: true });
    await mkdir(join(root, 'mysql'), { recursive: true });
    await writeFile(join(root, 'postgres', '0001_create_audit.sql'), 'create table audit_log (id bigint primary key);');
    await writeFile(join(root, 'mysql', '0001_create_audit.sql'), 'this is not PostgreSQL;');
    const migrator = createMigrator(database, [{ source: 'audit', dir: root }]);
    expect((await migrator.migrate()).applied.map((a) => `${a.source}/${a.name}`)).toEqual(['audit/0001_create_audit.sql']);
    expect(await tableExists('audit_log')).toBe(true);
    const status = await migrator.status();
    expect(status.folders).toEqual([{ source: 'audit', dir: join(root, 'postgres'), engineFolder: 'postgres' }]);
    expect(formatMigrationStatus(status, { root: dir })).toMatch(
      /^Folders read on PostgreSQL:\n {2}audit {2}audit\/postgres\/\naudit\/0001_create_audit\.sql {2}applied \S+\n1 applied, 0 pending\.\n$/,
    );
  });

  it("a set of mysql/ only stops migrate before anything runs; its own .sql files beside mysql/ are PostgreSQL's; beside postgres/ they are refused", async () => {
    const root = join(dir, 'app');
    await mkdir(join(root, 'mysql'), { recursive: true });
    await writeFile(join(root, 'mysql', '0001_a.sql'), 'CREATE TABLE a (id INT);');
    const migrator = createMigrator(database, [{ source: 'app', dir: root }]);
    const error = await migrator.migrate().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MigrationEngineMissingError);
    expect((error as Error).message).toMatch(
      /^The migration set "app" has no migrations for PostgreSQL: \S+ has no postgres\/ folder, and it has mysql\/ only\. Nothing was applied\./,
    );
    expect(await tableExists('bindery_migrations')).toBe(false);

    await writeFile(join(root, '0001_a.sql'), 'create table a (id int);');
    expect((await migrator.migrate()).applied.map((a) => `${a.source}/${a.name}`)).toEqual(['app/0001_a.sql']);
    expect(await tableExists('a')).toBe(true);
    const status = await migrator.status();
    expect(status.folders).toEqual([{ source: 'app', dir: root, engineFolder: undefined }]);
    expect(formatMigrationStatus(status)).toMatch(/^app\/0001_a\.sql {2}applied \S+\n1 applied, 0 pending\.\n$/);

    await mkdir(join(root, 'postgres'));
    await expect(migrator.pending()).rejects.toThrow(MigrationSetError);
    await expect(migrator.pending()).rejects.toThrow(
      `The migration set "app" in ${root} holds .sql files (0001_a.sql) beside its postgres/ folder: PostgreSQL's migrations are the set's own files or those of postgres/, not both.`,
    );
  });

  it('takes the engine as well as the Database', async () => {
    const app = await set('app', { '0001_a.sql': 'create table a (id int);' });
    const migrator = createMigrator(database.engine, [app]);
    expect((await migrator.migrate()).applied.map((a) => a.name)).toEqual(['0001_a.sql']);
    expect(await createMigrator(database, [app]).pending()).toEqual([]);
    expect(await tableExists('a')).toBe(true);
  });

  it('refuses an engine it has no strategy for, before touching the database', () => {
    const engine = { ...database.engine, name: 'sqlite' as never };
    expect(() => createMigrator(engine, [{ source: 'app', dir }])).toThrow(
      'The migrator has no strategy for the database engine "sqlite"; bindery migrates PostgreSQL, MySQL and MariaDB.',
    );
  });

  it('refuses invalid and duplicated sources', () => {
    expect(() => createMigrator(database, [{ source: 'App', dir }])).toThrow(MigrationSetError);
    expect(() =>
      createMigrator(database, [
        { source: 'app', dir },
        { source: 'app', dir },
      ]),
    ).toThrow('Migration source "app" is listed twice');
  });
});
