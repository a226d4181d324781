/**
 * `bindery migrate` on a mariadb:// DATABASE_URL (docs/cli.md "migrate";
 * docs/database.md "Migrations per engine", "When a migration fails"): a
 * tiny app whose only migrations are in migrations/mysql/.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateAppKey } from '../../../runtime/config/app-key.js';
import { connectDatabase, type Database } from '../../../runtime/db/index.js';
import { createTestMariaDatabase, type TestDatabase } from '../../support/database.js';
import { runCli, runCliInProcess } from './run-cli.js';

const runtimeApp = fileURLToPath(new URL('../../../runtime/app/index.js', import.meta.url));

describe("bindery migrate | on MariaDB, the app's migrations in migrations/mysql/", () => {
  let root: string;
  let testDb: TestDatabase;
  let database: Database;
  let env: Record<string, string>;
  const migration = (name: string, sql: string) => writeFile(join(root, 'migrations', 'mysql', name), sql);
  const rows = async (sql: string) => (await database.engine.run(sql)).rows;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'bindery-migrate-mysql-'));
    await mkdir(join(root, 'app'));
    await mkdir(join(root, 'migrations', 'mysql'), { recursive: true });
    await writeFile(join(root, 'package.json'), '{ "type": "module", "private": true }\n');
    await writeFile(
      join(root, 'app/main.ts'),
      `import { fileURLToPath } from 'node:url';
import { defineApp } from '${relative(join(root, 'app'), runtimeApp)}';
export default defineApp({ name: 'mysql_migrate', root: fileURLToPath(new URL('..', import.meta.url)), routes: [], handlers: {}, migrations: [{ source: 'app', dir: 'migrations' }] });
`,
    );
    await migration(
      '0001_create_things.sql',
      'CREATE TABLE things (\n  id BIGINT AUTO_INCREMENT PRIMARY KEY,\n  name VARCHAR(200) NOT NULL\n);\n',
    );
    await migration(
      '0002_add_things_created_at.sql',
      'ALTER TABLE things ADD COLUMN created_at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6);\n',
    );
    testDb = await createTestMariaDatabase('cli_migrate_my');
    database = await connectDatabase({ url: testDb.url });
    env = { DATABASE_URL: testDb.url, APP_KEY: generateAppKey() };
  });
  afterAll(async () => {
    await database.close();
    await testDb.drop();
    await rm(root, { recursive: true, force: true });
  });

  it('--status names the mysql/ folder read and lists the pending migrations, applying nothing', async () => {
    const r = await runCliInProcess(['migrate', '--status'], { cwd: root, env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        'Folders read on MariaDB:',
        '  app  migrations/mysql/',
        'app/0001_create_things.sql          pending',
        'app/0002_add_things_created_at.sql  pending',
        '0 applied, 2 pending.',
        '',
      ].join('\n'),
    );
    expect(await database.engine.tableExists('bindery_migrations')).toBe(false);
  });

  it('applies them (exit 0): the tables are there, recorded, and --status lists them applied', async () => {
    const r = await runCli(['migrate'], { cwd: root, env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^Applying app\/0001_create_things\.sql … done \(\d+ ms\)\nApplying app\/0002_add_things_created_at\.sql … done \(\d+ ms\)\nMigrations: applied 2\.\n$/,
    );
    expect(
      await rows(
        "SELECT COLUMN_NAME AS c FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'things' ORDER BY ORDINAL_POSITION",
      ),
    ).toEqual([{ c: 'id' }, { c: 'name' }, { c: 'created_at' }]);
    expect(await rows('SELECT source, name FROM bindery_migrations ORDER BY name')).toEqual([
      { source: 'app', name: '0001_create_things.sql' },
      { source: 'app', name: '0002_add_things_created_at.sql' },
    ]);
    const again = await runCliInProcess(['migrate'], { cwd: root, env });
    expect(again.stdout).toBe('Migrations: nothing to apply.\n');
    const status = await runCliInProcess(['migrate', '--status'], { cwd: root, env });
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(
      /^Folders read on MariaDB:\n {2}app {2}migrations\/mysql\/\napp\/0001_create_things\.sql {10}applied \d{4}-\d\d-\d\dT\S+Z\napp\/0002_add_things_created_at\.sql {2}applied \S+Z\n2 applied, 0 pending\.\n$/,
    );
  });

  it('a migration failing half-way exits 1 with the exact message; the rerun after the fix resumes and applies only the rest', async () => {
    await migration(
      '0003_fill_things.sql',
      "INSERT INTO things (name) VALUES ('first');\nINSERT INTO things (name) VALUES ('second');\nINSERT INTO things (id, name) VALUES (1, 'third');\nINSERT INTO things (name) VALUES ('fourth');\n",
    );
    const r = await runCli(['migrate'], { cwd: root, env });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('Applying app/0003_fill_things.sql … ');
    expect(r.stderr).toBe(
      [
        "Error: Migration app/0003_fill_things.sql (statement 3 of 4, line 3) failed: Duplicate entry '1' for key 'PRIMARY' (errno 1062, SQLSTATE 23000). MariaDB commits each statement as it runs (DDL cannot be rolled back), so statements 1–2 stay applied, recorded as done:",
        "  1 (line 1) applied: INSERT INTO things (name) VALUES ('first')",
        "  2 (line 2) applied: INSERT INTO things (name) VALUES ('second')",
        "  3 (line 3) FAILED: INSERT INTO things (id, name) VALUES (1, 'third')",
        'Statement 4 and the migrations after this one did not run. Fix the data statement 3 trips on, or the statement (or those after it; statements 1–2 ran and must stay as they are), and run "bindery migrate" again: it resumes at statement 3. See docs/database.md "When a migration fails".',
        '(BINDERY_MIGRATION_FAILED; docs/errors.md#bindery_migration_failed says what to do)',
        '',
      ].join('\n'),
    );
    expect(await rows('SELECT name FROM things ORDER BY id')).toEqual([{ name: 'first' }, { name: 'second' }]);
    const status = await runCliInProcess(['migrate', '--status'], { cwd: root, env });
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(
      /\napp\/0003_fill_things\.sql {12}pending, 2 of 4 statements applied, FAILED \S+Z: statement 3 of 4 \(line 3\): Duplicate entry '1' for key 'PRIMARY' \(errno 1062, SQLSTATE 23000\); statements 1–2 stay applied, the next run resumes at statement 3\n2 applied, 1 pending, 1 failed at the last run \(fix the data and migrate again, or see docs\/database\.md "When a migration fails"\), 1 partly applied \(the next run resumes it\)\.\n$/,
    );

    await migration(
      '0003_fill_things.sql',
      "INSERT INTO things (name) VALUES ('first');\nINSERT INTO things (name) VALUES ('second');\nINSERT INTO things (name) VALUES ('third');\nINSERT INTO things (name) VALUES ('fourth');\n",
    );
    const rerun = await runCliInProcess(['migrate'], { cwd: root, env });
    expect(rerun.stderr).toBe('');
    expect(rerun.code).toBe(0);
    expect(rerun.stdout).toMatch(/^Applying app\/0003_fill_things\.sql … done \(\d+ ms\)\nMigrations: applied 1\.\n$/);
    expect(await rows('SELECT name FROM things ORDER BY id')).toEqual([
      { name: 'first' },
      { name: 'second' },
      { name: 'third' },
      { name: 'fourth' },
    ]);
    const after = await runCliInProcess(['migrate', '--status'], { cwd: root, env });
    expect(after.stdout).toMatch(/\n3 applied, 0 pending\.\n$/);
  });

  it('--status exits 1 when a statement that ran was edited, and migrate refuses it', async () => {
    await migration('0004_bad.sql', "INSERT INTO things (name) VALUES ('fifth');\nINSERT INTO missing VALUES (1);\n");
    expect((await runCliInProcess(['migrate'], { cwd: root, env })).code).toBe(1);
    await migration('0004_bad.sql', "INSERT INTO things (name) VALUES ('5th');\nSELECT 1;\n");
    const status = await runCliInProcess(['migrate', '--status'], { cwd: root, env });
    expect(status.code).toBe(1);
    expect(status.stdout).toMatch(
      /\napp\/0004_bad\.sql {20}pending, 1 of 2 statements applied \S+Z, EDITED since they ran \(an error: restore them\)\n/,
    );
    const refused = await runCliInProcess(['migrate'], { cwd: root, env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^Error: An applied migration was changed after being applied:\n {2}- \S+\/migrations\/mysql\/0004_bad\.sql: statement 1 ran \(stay applied\) /,
    );
    expect(refused.stderr).toContain('(BINDERY_MIGRATION_CHANGED;');
    expect(await rows("SELECT name FROM things WHERE name IN ('fifth', '5th')")).toEqual([{ name: 'fifth' }]);
  });

  it('production without DATABASE_URL names both kinds of URL', async () => {
    const r = await runCliInProcess(['migrate'], { cwd: root, env: { APP_ENV: 'production', APP_KEY: generateAppKey() } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      '  - DATABASE_URL: missing: production needs a PostgreSQL server of its own (postgres://user:password@host:5432/database) or a MySQL or MariaDB one (mysql://user:password@host:3306/database); the embedded PostgreSQL is for development and testing only',
    );
  });
});
