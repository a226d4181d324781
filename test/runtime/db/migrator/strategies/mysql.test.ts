import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatMigrationStatus, statusIsBroken } from '../../../../../runtime/cli/commands/migrate.js';
import { connectDatabase, type Database } from '../../../../../runtime/db/index.js';
import { MigrationChangedError, MigrationEngineMissingError, MigrationFailedError } from '../../../../../runtime/db/migrator/errors.js';
import { migrationChecksum, type MigrationSet } from '../../../../../runtime/db/migrator/migration-set.js';
import { createMigrator, type MigrationEvent } from '../../../../../runtime/db/migrator/migrator.js';
import { createTestMariaDatabase, type TestDatabase } from '../../../../support/database.js';

/** Wait until `check` holds (10 s at most). */
async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('Migrator on MariaDB | statement by statement, resuming a partly applied file', () => {
  let dir: string;
  let testDb: TestDatabase;
  let database: Database;
  const extra: Database[] = [];

  /** A per-engine set: its files in `<source>/mysql/` (and a PostgreSQL twin that must not be read). */
  const set = async (source: string, files: Record<string, string>): Promise<MigrationSet> => {
    const d = join(dir, source);
    await mkdir(join(d, 'mysql'), { recursive: true });
    await mkdir(join(d, 'postgres'), { recursive: true });
    for (const [name, sql] of Object.entries(files)) {
      await writeFile(join(d, 'mysql', name), sql);
      await writeFile(join(d, 'postgres', name), 'this is not MySQL;');
    }
    return { source, dir: d };
  };
  const rows = async <R = Record<string, unknown>>(sql: string, parameters: unknown[] = []) =>
    (await database.engine.run<R>(sql, parameters)).rows;
  const records = () =>
    rows<{ source: string; name: string }>('SELECT source, name FROM bindery_migrations ORDER BY applied_at, source, name');

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bindery-migrations-mysql-'));
    testDb = await createTestMariaDatabase('migrator_my');
    database = await connectDatabase({ url: testDb.url });
  });
  afterEach(async () => {
    for (const d of extra.splice(0)) await d.close();
    await database.close();
    await testDb.drop();
    await rm(dir, { recursive: true, force: true });
  });

  it('applies the mysql/ folder of each set in order, one statement at a time, recorded with DATETIME(6) and utf8mb4_bin keys', async () => {
    const app = await set('app', {
      '0001_create_notes.sql':
        "CREATE TABLE notes (\n  id BIGINT AUTO_INCREMENT PRIMARY KEY,\n  title VARCHAR(200) NOT NULL\n);\n\n-- a second statement\nINSERT INTO notes (title) VALUES ('a;b');\n",
      '0002_add_body.sql': 'ALTER TABLE notes ADD COLUMN body LONGTEXT;\n',
    });
    const plugin = await set('mailprovider', {
      '0001_create_suppressions.sql': 'CREATE TABLE mailprovider_suppressions (email VARCHAR(320) PRIMARY KEY);',
    });
    const sent: string[] = [];
    database.engine.observe({
      queryStarted: (sql) => {
        sent.push(sql.replace(/\s+/g, ' ').trim());
        return undefined;
      },
    });
    const result = await createMigrator(database, [app, plugin]).migrate();
    const ran = [...sent]; // the statements of migrate, not those of the checks below

    expect(result.applied.map((a) => `${a.source}/${a.name}`)).toEqual([
      'app/0001_create_notes.sql',
      'app/0002_add_body.sql',
      'mailprovider/0001_create_suppressions.sql',
    ]);
    expect(await records()).toEqual([
      { source: 'app', name: '0001_create_notes.sql' },
      { source: 'app', name: '0002_add_body.sql' },
      { source: 'mailprovider', name: '0001_create_suppressions.sql' },
    ]);
    expect(await rows('SELECT title, body FROM notes')).toEqual([{ title: 'a;b', body: null }]);
    const [first] = await rows<{ checksum: string }>("SELECT checksum FROM bindery_migrations WHERE name = '0002_add_body.sql'");
    expect(first!.checksum).toBe(migrationChecksum('ALTER TABLE notes ADD COLUMN body LONGTEXT;\n'));
    // The first file: each statement in its own transaction with its progress; the record after the last one.
    const firstFile = ran.slice(ran.indexOf('START TRANSACTION'), ran.indexOf('COMMIT', ran.indexOf('COMMIT') + 1) + 1);
    expect(firstFile).toEqual([
      'START TRANSACTION',
      'CREATE TABLE notes ( id BIGINT AUTO_INCREMENT PRIMARY KEY, title VARCHAR(200) NOT NULL )',
      'REPLACE INTO bindery_migration_failures (source, name, checksum, error, statements_done, statements_checksum) VALUES (?, ?, ?, ?, ?, ?)',
      'COMMIT',
      'START TRANSACTION',
      "INSERT INTO notes (title) VALUES ('a;b')",
      'INSERT INTO bindery_migrations (source, name, checksum) VALUES (?, ?, ?)',
      'DELETE FROM bindery_migration_failures WHERE source = ? AND name = ?',
      'COMMIT',
    ]);
    expect(ran[0]).toBe('SELECT GET_LOCK(?, 0) AS ok');
    expect(ran.at(-1)).toBe('SELECT RELEASE_LOCK(?) AS ok');

    const columns = await rows<{ table: string; column: string; type: string; collation: string | null }>(
      `SELECT TABLE_NAME AS \`table\`, COLUMN_NAME AS \`column\`, COLUMN_TYPE AS type, COLLATION_NAME AS collation
         FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME LIKE 'bindery_migration%' ORDER BY TABLE_NAME, ORDINAL_POSITION`,
    );
    expect(columns.filter((c) => c.table === 'bindery_migrations')).toEqual([
      { table: 'bindery_migrations', column: 'source', type: 'varchar(128)', collation: 'utf8mb4_bin' },
      { table: 'bindery_migrations', column: 'name', type: 'varchar(255)', collation: 'utf8mb4_bin' },
      { table: 'bindery_migrations', column: 'checksum', type: 'varchar(64)', collation: 'utf8mb4_bin' },
      { table: 'bindery_migrations', column: 'applied_at', type: 'datetime(6)', collation: null },
    ]);
    expect(columns.filter((c) => c.table === 'bindery_migration_failures').map((c) => `${c.column} ${c.type}`)).toEqual([
      'source varchar(128)',
      'name varchar(255)',
      'checksum varchar(64)',
      'error longtext',
      'failed_at datetime(6)',
      'statements_done int(11)',
      'statements_checksum varchar(64)',
    ]);

    const migrator = createMigrator(database, [app, plugin]);
    expect((await migrator.migrate()).applied).toEqual([]);
    const status = await migrator.status();
    expect(status.engine).toBe('mariadb');
    expect(status.pending).toEqual([]);
    expect(status.applied.every((a) => a.appliedAt instanceof Date && Math.abs(a.appliedAt.getTime() - Date.now()) < 60_000)).toBe(true);
    expect(formatMigrationStatus(status, { root: dir })).toMatch(
      /^Folders read on MariaDB:\n {2}app {11}app\/mysql\/\n {2}mailprovider {2}mailprovider\/mysql\/\napp\/0001_create_notes\.sql {18}applied \d{4}-\S+Z\napp\/0002_add_body\.sql {22}applied \S+\nmailprovider\/0001_create_suppressions\.sql {2}applied \S+\n3 applied, 0 pending\.\n$/,
    );
  });

  it('a file failing half-way keeps the statements before the failing one, says exactly which ran, and records how far it got', async () => {
    const app = await set('app', {
      '0001_ok.sql': 'CREATE TABLE ok (id INT);',
      '0002_bad.sql':
        'CREATE TABLE half (id INT);\nINSERT INTO half VALUES (1);\n\nINSERT INTO missing_table VALUES (1);\nCREATE TABLE after_bad (id INT);\n',
      '0003_later.sql': 'CREATE TABLE later (id INT);',
    });
    const migrator = createMigrator(database, [app]);
    const error = await migrator.migrate().catch((e: unknown) => e);

    expect(error).toBeInstanceOf(MigrationFailedError);
    const failed = error as MigrationFailedError;
    expect(failed.code).toBe('BINDERY_MIGRATION_FAILED');
    expect(failed.migration).toBe('app/0002_bad.sql');
    expect(failed.line).toBe(4);
    expect(failed.statement).toEqual({ index: 3, count: 4, applied: 2 });
    expect(failed.reason).toBe(`Table '${testDb.name}.missing_table' doesn't exist (errno 1146, SQLSTATE 42S02)`);
    expect(failed.message).toBe(
      [
        `Migration app/0002_bad.sql (statement 3 of 4, line 4) failed: Table '${testDb.name}.missing_table' doesn't exist (errno 1146, SQLSTATE 42S02). MariaDB commits each statement as it runs (DDL cannot be rolled back), so statements 1–2 stay applied, recorded as done:`,
        '  1 (line 1) applied: CREATE TABLE half (id INT)',
        '  2 (line 2) applied: INSERT INTO half VALUES (1)',
        '  3 (line 4) FAILED: INSERT INTO missing_table VALUES (1)',
        'Statement 4 and the migrations after this one did not run. Fix the data statement 3 trips on, or the statement (or those after it; statements 1–2 ran and must stay as they are), and run "bindery migrate" again: it resumes at statement 3. See docs/database.md "When a migration fails".',
      ].join('\n'),
    );
    expect(await records()).toEqual([{ source: 'app', name: '0001_ok.sql' }]);
    expect(await rows('SELECT id FROM half')).toEqual([{ id: 1 }]);
    expect(await database.engine.tableExists('after_bad')).toBe(false);
    expect(await database.engine.tableExists('later')).toBe(false);
    expect(await rows('SELECT name, statements_done, error FROM bindery_migration_failures')).toEqual([
      {
        name: '0002_bad.sql',
        statements_done: 2,
        error: `statement 3 of 4 (line 4): Table '${testDb.name}.missing_table' doesn't exist (errno 1146, SQLSTATE 42S02); statements 1–2 stay applied, the next run resumes at statement 3`,
      },
    ]);

    const status = await migrator.status();
    expect(status.partial).toEqual([
      expect.objectContaining({
        source: 'app',
        name: '0002_bad.sql',
        statementsDone: 2,
        statements: 4,
        edited: false,
        since: expect.any(Date),
      }),
    ]);
    expect(status.failed).toEqual([expect.objectContaining({ name: '0002_bad.sql', changedSince: false })]);
    expect(statusIsBroken(status)).toBe(false);
    expect(formatMigrationStatus(status, { root: dir })).toMatch(
      new RegExp(
        `\napp/0002_bad\\.sql {4}pending, 2 of 4 statements applied, FAILED \\S+Z: statement 3 of 4 \\(line 4\\): Table '${testDb.name}\\.missing_table' doesn't exist \\(errno 1146, SQLSTATE 42S02\\); statements 1–2 stay applied, the next run resumes at statement 3\napp/0003_later\\.sql {2}pending\n1 applied, 2 pending, 1 failed at the last run \\(fix the data and migrate again, or see docs/database\\.md "When a migration fails"\\), 1 partly applied \\(the next run resumes it\\)\\.\n$`,
      ),
    );
  });

  it("a syntax error is placed at the server's line inside its statement; a failing first statement leaves nothing applied", async () => {
    const app = await set('app', { '0001_syntax.sql': 'CREATE TABLE fine (id INT);\n\nCREATE TABLE x (\n  id INT,\n  ,\n);\n' });
    const error = (await createMigrator(database, [app])
      .migrate()
      .catch((e: unknown) => e)) as MigrationFailedError;
    expect(error.line).toBe(5);
    expect(error.statement).toEqual({ index: 2, count: 2, applied: 1 });
    expect(error.message).toMatch(
      /^Migration app\/0001_syntax\.sql \(statement 2 of 2, line 5\) failed: You have an error in your SQL syntax; [\s\S]* at line 3 \(errno 1064, SQLSTATE 42000\)\. MariaDB commits each statement as it runs \(DDL cannot be rolled back\), so statement 1 stays applied, recorded as done:\n {2}1 \(line 1\) applied: CREATE TABLE fine \(id INT\)\n {2}2 \(line 3\) FAILED: CREATE TABLE x \( …\nThe migrations after this one did not run\. Fix the data statement 2 trips on, or the statement \(or those after it; statement 1 ran and must stay as it is\), /,
    );

    const first = await set('first', { '0001_first.sql': 'INSERT INTO missing VALUES (1);\nSELECT 1;\n' });
    const failed = (await createMigrator(database, [first])
      .migrate()
      .catch((e: unknown) => e)) as MigrationFailedError;
    expect(failed.statement).toEqual({ index: 1, count: 2, applied: 0 });
    expect(failed.message).toBe(
      [
        `Migration first/0001_first.sql (statement 1 of 2, line 1) failed: Table '${testDb.name}.missing' doesn't exist (errno 1146, SQLSTATE 42S02). Nothing of it stays applied: its first statement failed.`,
        '  1 (line 1) FAILED: INSERT INTO missing VALUES (1)',
        'Statement 2 and the migrations after this one did not run. Fix the data it trips on, or the statement, and run "bindery migrate" again. See docs/database.md "When a migration fails".',
      ].join('\n'),
    );
    expect((await createMigrator(database, [first]).status()).partial).toEqual([]);
  });

  it('a rerun after fixing the failing statement resumes after the statements done and applies only the rest', async () => {
    const app = await set('app', {
      '0001_bad.sql': 'CREATE TABLE half (id INT);\nINSERT INTO half VALUES (1);\nINSERT INTO missing_table VALUES (1);\n',
    });
    const migrator = createMigrator(database, [app]);
    await expect(migrator.migrate()).rejects.toThrow(MigrationFailedError);

    const fixed =
      '-- fixed\nCREATE TABLE half (id INT);\nINSERT INTO half VALUES (1);\nINSERT INTO half VALUES (2);\nCREATE TABLE more (id INT);\n';
    await writeFile(join(app.dir, 'mysql', '0001_bad.sql'), fixed);
    expect((await migrator.status()).failed).toEqual([expect.objectContaining({ changedSince: true })]);
    const sent: string[] = [];
    database.engine.observe({
      queryStarted: (sql) => {
        sent.push(sql);
        return undefined;
      },
    });
    const result = await migrator.migrate();

    expect(result.applied.map((a) => a.name)).toEqual(['0001_bad.sql']);
    expect(sent).not.toContain('CREATE TABLE half (id INT)');
    expect(sent).not.toContain('INSERT INTO half VALUES (1)');
    expect(sent.filter((s) => /^(INSERT INTO half|CREATE TABLE more)/.test(s))).toEqual([
      'INSERT INTO half VALUES (2)',
      'CREATE TABLE more (id INT)',
    ]);
    expect(await rows('SELECT id FROM half ORDER BY id')).toEqual([{ id: 1 }, { id: 2 }]);
    const [record] = await rows<{ checksum: string }>('SELECT checksum FROM bindery_migrations');
    expect(record!.checksum).toBe(migrationChecksum(fixed));
    expect(await rows('SELECT * FROM bindery_migration_failures')).toEqual([]);
    const after = await migrator.status();
    expect([after.pending, after.failed, after.partial]).toEqual([[], [], []]);
  });

  it('a data check written as the generator writes it (a procedure on one line, SIGNAL) stops at its CALL; fixing the data and rerunning resumes there', async () => {
    const app = await set('app', {
      '0001_notes.sql':
        "CREATE TABLE notes (id INT PRIMARY KEY, status VARCHAR(20) NOT NULL);\nINSERT INTO notes VALUES (1, 'draft'), (2, 'gone');\n",
      '0002_limit_status.sql': [
        'DROP PROCEDURE IF EXISTS `bindery_migration_check`;',
        "CREATE PROCEDURE `bindery_migration_check`() BEGIN DECLARE n BIGINT DEFAULT 0; DECLARE m VARCHAR(512); SELECT count(*) INTO n FROM `notes` WHERE NOT (`status` IN ('draft', 'published')); IF n > 0 THEN SET m = LEFT(CONCAT('cannot limit notes.status to (draft, published): ', n, ' row(s) hold another value; nothing was changed'), 128); SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = m; END IF; END;",
        'CALL `bindery_migration_check`();',
        'DROP PROCEDURE `bindery_migration_check`;',
        "ALTER TABLE `notes` ADD CONSTRAINT `notes_status_check` CHECK (`status` IN ('draft', 'published'));",
        '',
      ].join('\n'),
    });
    const migrator = createMigrator(database, [app]);
    const error = (await migrator.migrate().catch((e: unknown) => e)) as MigrationFailedError;
    expect(error).toBeInstanceOf(MigrationFailedError);
    expect(error.statement).toEqual({ index: 3, count: 5, applied: 2 });
    expect(error.reason).toBe(
      'cannot limit notes.status to (draft, published): 1 row(s) hold another value; nothing was changed (errno 1644, SQLSTATE 45000)',
    );
    expect(error.message).toContain(
      '  2 (line 2) applied: CREATE PROCEDURE `bindery_migration_check`() BEGIN DECLARE n BIGINT DEFAULT 0; D…\n  3 (line 3) FAILED: CALL `bindery_migration_check`()\n',
    );

    await rows("UPDATE notes SET status = 'published' WHERE id = 2");
    expect((await migrator.migrate()).applied.map((a) => a.name)).toEqual(['0002_limit_status.sql']);
    await expect(rows("INSERT INTO notes VALUES (3, 'gone')")).rejects.toThrow(/notes_status_check/);
    expect(await rows('SELECT COUNT(*) AS n FROM information_schema.ROUTINES WHERE ROUTINE_SCHEMA = DATABASE()')).toEqual([{ n: 0 }]);
  });

  it('editing a statement that ran is refused before anything runs, as for a changed applied file', async () => {
    const app = await set('app', {
      '0001_bad.sql': 'CREATE TABLE half (id INT);\nINSERT INTO half VALUES (1);\nINSERT INTO missing_table VALUES (1);\n',
    });
    const other = await set('other', { '0001_a.sql': 'CREATE TABLE a (id INT);' });
    const migrator = createMigrator(database, [app, other]);
    await expect(migrator.migrate()).rejects.toThrow(MigrationFailedError);
    const path = join(app.dir, 'mysql', '0001_bad.sql');
    await writeFile(path, 'CREATE TABLE half (id BIGINT);\nINSERT INTO half VALUES (1);\nINSERT INTO half VALUES (2);\n');

    const error = await migrator.migrate().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MigrationChangedError);
    expect((error as MigrationChangedError).code).toBe('BINDERY_MIGRATION_CHANGED');
    expect((error as MigrationChangedError).migrations).toEqual(['app/0001_bad.sql']);
    expect((error as Error).message).toMatch(
      new RegExp(
        `^An applied migration was changed after being applied:\n {2}- ${path.replaceAll('/', '\\/')}: statements 1–2 ran \\(stay applied\\) \\S+Z with checksum [0-9a-f]{12}…, they now have [0-9a-f]{12}…; restore them as they ran \\(only the statements after them may change\\)\n`,
      ),
    );
    expect(await database.engine.tableExists('a')).toBe(false);
    expect(await rows('SELECT id FROM half')).toEqual([{ id: 1 }]);
    const status = await migrator.status();
    expect(status.partial).toEqual([expect.objectContaining({ name: '0001_bad.sql', edited: true })]);
    expect(statusIsBroken(status)).toBe(true);
    expect(formatMigrationStatus(status)).toMatch(
      /\napp\/0001_bad\.sql {2}pending, 2 of 3 statements applied \S+Z, EDITED since they ran \(an error: restore them\)\n[\s\S]*, 1 with applied statements edited \(an error: restore them\)\.\n$/,
    );
  });

  it('a run that stopped half-way (its connection killed) resumes at the statement that did not finish', async () => {
    const path = 'app';
    const app = await set(path, {
      '0001_slow.sql': 'CREATE TABLE slow (id INT);\nSELECT SLEEP(30);\nINSERT INTO slow VALUES (1);\n',
    });
    const events: MigrationEvent['kind'][] = [];
    const running = createMigrator(database, [app])
      .migrate({ onProgress: (e) => events.push(e.kind) })
      .catch((e: unknown) => e);
    const sleeping = async () =>
      (await rows<{ id: number }>("SELECT ID AS id FROM information_schema.PROCESSLIST WHERE INFO = 'SELECT SLEEP(30)'"))[0]?.id;
    await until(async () => (await sleeping()) !== undefined, 'the migration sleeps');
    await rows(`KILL ${await sleeping()}`);
    const error = await running;
    expect(error).toBeInstanceOf(MigrationFailedError);
    expect((error as MigrationFailedError).statement).toEqual({ index: 2, count: 3, applied: 1 });

    const status = await createMigrator(database, [app]).status();
    expect(status.failed).toEqual([]);
    expect(status.partial).toEqual([expect.objectContaining({ statementsDone: 1, statements: 3, edited: false })]);
    expect(formatMigrationStatus(status)).toMatch(
      /^Folders read on MariaDB:\n {2}app {2}\S+\/app\/mysql\/\napp\/0001_slow\.sql {2}pending, 1 of 3 statements applied \S+Z \(the run stopped there; the next resumes at statement 2\)\n0 applied, 1 pending, 1 partly applied \(the next run resumes it\)\.\n$/,
    );

    await writeFile(join(app.dir, 'mysql', '0001_slow.sql'), 'CREATE TABLE slow (id INT);\nSELECT 1;\nINSERT INTO slow VALUES (1);\n');
    expect((await createMigrator(database, [app]).migrate()).applied.map((a) => a.name)).toEqual(['0001_slow.sql']);
    expect(await rows('SELECT id FROM slow')).toEqual([{ id: 1 }]);
  });

  it('concurrent migrate calls serialize on GET_LOCK: the second waits, then finds nothing to apply', async () => {
    const app = await set('app', {
      '0001_slow.sql': 'CREATE TABLE slow (id INT);\nDO SLEEP(0.4);\nINSERT INTO slow VALUES (1);',
      '0002_next.sql': 'INSERT INTO slow VALUES (2);',
    });
    const other = await connectDatabase({ url: testDb.url });
    extra.push(other);
    const events: MigrationEvent['kind'][][] = [[], []];
    const first = createMigrator(database, [app]).migrate({ onProgress: (e) => events[0]!.push(e.kind) });
    await until(() => events[0]!.includes('applying'), 'the first migrate applies');
    const second = createMigrator(other, [app]).migrate({ onProgress: (e) => events[1]!.push(e.kind) });
    const [a, b] = await Promise.all([first, second]);
    expect(a.applied.map((m) => m.name)).toEqual(['0001_slow.sql', '0002_next.sql']);
    expect(b.applied).toEqual([]);
    expect(events[1]).toEqual(['waiting']);
    expect(await rows('SELECT id FROM slow ORDER BY id')).toEqual([{ id: 1 }, { id: 2 }]);
    expect(await records()).toHaveLength(2);
  });

  it('a set without a mysql/ folder stops migrate before anything runs, naming the set, its step and the engine', async () => {
    const pgOnly = join(dir, 'audit');
    await mkdir(pgOnly, { recursive: true });
    await writeFile(join(pgOnly, '0001_create_audit.sql'), 'create table audit_log (id bigserial primary key);');
    const app = await set('app', { '0001_a.sql': 'CREATE TABLE a (id INT);' });
    const migrator = createMigrator(database, [app, { source: 'audit', dir: pgOnly, addedBy: 'audit()' }]);

    const error = await migrator.migrate().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MigrationEngineMissingError);
    expect((error as MigrationEngineMissingError).code).toBe('BINDERY_MIGRATION_ENGINE_MISSING');
    expect((error as Error).message).toBe(
      `The migration set "audit" (added by audit()) has no migrations for MariaDB: ${pgOnly} has no mysql/ folder, and its 1 .sql file is PostgreSQL's (a set without a mysql/ folder is PostgreSQL's). Nothing was applied. Write the set's MariaDB migrations in ${join(pgOnly, 'mysql')}/ (the same file names as for the other engine; docs/database.md "Migrations per engine"), run the app on an engine the set has migrations for or leave audit() out of the setup list.`,
    );
    await expect(migrator.status()).rejects.toThrow(MigrationEngineMissingError);
    expect(await database.engine.tableExists('bindery_migrations')).toBe(false);
    expect(await database.engine.tableExists('a')).toBe(false);

    // A per-engine set with postgres/ only is refused alike; an empty or absent folder holds no migrations.
    const pgFolder = join(dir, 'jobs');
    await mkdir(join(pgFolder, 'postgres'), { recursive: true });
    await expect(createMigrator(database, [{ source: 'jobs', dir: pgFolder }]).pending()).rejects.toThrow(
      `The migration set "jobs" has no migrations for MariaDB: ${pgFolder} has no mysql/ folder, and it has postgres/ only.`,
    );
    // PostgreSQL's files may also stay the set's own, beside its mysql/ folder.
    const beside = join(dir, 'cache');
    await mkdir(join(beside, 'mysql'), { recursive: true });
    await writeFile(join(beside, '0001_create_cache.sql'), 'create table cache (key text primary key);');
    await writeFile(join(beside, 'mysql', '0001_create_cache.sql'), 'CREATE TABLE cache (`key` VARCHAR(255) PRIMARY KEY);');
    const cache = createMigrator(database, [{ source: 'cache', dir: beside }]);
    expect((await cache.migrate()).applied.map((m) => m.name)).toEqual(['0001_create_cache.sql']);
    expect((await cache.status()).folders).toEqual([{ source: 'cache', dir: join(beside, 'mysql'), engineFolder: 'mysql' }]);
    expect(await database.engine.tableExists('cache')).toBe(true);

    await mkdir(join(dir, 'empty'));
    const none = createMigrator(database, [app, { source: 'empty', dir: join(dir, 'empty') }, { source: 'gone', dir: join(dir, 'gone') }]);
    expect((await none.migrate()).applied.map((m) => m.name)).toEqual(['0001_a.sql']);
  });
});
