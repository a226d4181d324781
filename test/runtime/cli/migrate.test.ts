import { existsSync } from 'node:fs';
import { chmod, cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateAppKey } from '../../../runtime/config/app-key.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { runCli } from './run-cli.js';

const cwd = fileURLToPath(new URL('./fixtures/migrate-app', import.meta.url));

describe('bindery migrate | against a test database', () => {
  let db: TestDatabase;
  let env: Record<string, string>;
  beforeAll(async () => {
    db = await createTestDatabase('cli_migrate');
    env = { DATABASE_URL: db.url, APP_KEY: generateAppKey() };
  });
  afterAll(async () => {
    await db.drop();
  });

  it('--status lists pending migrations, applies nothing', async () => {
    const r = await runCli(['migrate', '--status'], { cwd, env });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      ['app/0001_create_things.sql          pending', 'app/0002_add_things_created_at.sql  pending', '0 applied, 2 pending.', ''].join(
        '\n',
      ),
    );
  });

  it('applies them with a progress line each, then has nothing to do', async () => {
    const r = await runCli(['migrate'], { cwd, env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^Applying app\/0001_create_things\.sql … done \(\d+ ms\)\nApplying app\/0002_add_things_created_at\.sql … done \(\d+ ms\)\nMigrations: applied 2\.\n$/,
    );
    const again = await runCli(['migrate'], { cwd, env });
    expect(again.stdout).toBe('Migrations: nothing to apply.\n');
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const { rows } = await client.query('select source, name from bindery_migrations order by name');
    await client.end();
    expect(rows).toEqual([
      { source: 'app', name: '0001_create_things.sql' },
      { source: 'app', name: '0002_add_things_created_at.sql' },
    ]);
    const status = await runCli(['migrate', '--status'], { cwd, env });
    expect(status.stdout).toMatch(/^app\/0001_create_things\.sql {10}applied \d{4}-\d\d-\d\dT/);
    expect(status.stdout).toMatch(/\n2 applied, 0 pending\.\n$/);
  });

  it('bad settings stop it with one message naming each, exit 1, no stack', async () => {
    const r = await runCli(['migrate'], { cwd, env: { ...env, APP_ENV: 'prod', APP_KEY: '' } });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      [
        'Error: 2 settings are invalid; the boot stops:',
        '  - APP_ENV="prod": expected one of development, testing, production',
        '  - APP_KEY is missing: expected "base64:" followed by the base64 of exactly 32 random bytes; run "bindery key:generate" to make one',
        'Set them in the environment or in .env (docs/settings.md lists every setting).',
        '(BINDERY_SETTING_INVALID; docs/errors.md#bindery_setting_invalid says what to do)',
        '',
      ].join('\n'),
    );
  });

  it('an unreachable database is reported without the password, exit 1', async () => {
    // A password of its own: the server's URL may have none (DATABASE_URL).
    const url = new URL(db.url);
    url.port = '1';
    url.password = 'secret-password';
    const r = await runCli(['migrate'], { cwd, env: { ...env, DATABASE_URL: url.toString() } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Error: Cannot connect to the database at postgres://postgres:***@127.0.0.1:1/');
    expect(r.stderr).toContain('(BINDERY_DATABASE_UNREACHABLE;');
    expect(r.stderr).not.toContain('secret-password');
  });

  it('production without DATABASE_URL stops before any database is started, naming the setting', async () => {
    for (const command of [['serve'], ['migrate']]) {
      const r = await runCli(command, { cwd, env: { APP_ENV: 'production', APP_KEY: generateAppKey() } });
      expect(r.code, command[0]).toBe(1);
      expect(r.stderr).toContain('  - DATABASE_URL: missing: production needs a PostgreSQL server of its own');
      expect(r.stdout).not.toContain('embedded');
      expect(existsSync(join(cwd, '.data')), 'no embedded PostgreSQL created').toBe(false);
    }
  });

  it('APP_DEBUG=true adds the stack trace', async () => {
    const r = await runCli(['migrate'], { cwd, env: { ...env, APP_ENV: 'prod', APP_DEBUG: 'true' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/\n {4}at /);
  });
});

describe('bindery migrate | on the embedded PostgreSQL (DATABASE_URL unset)', () => {
  it('--status prints the status and nothing else: its own pool ends before the server stops (no "connection lost" warnings)', async () => {
    const root = await mkdtemp(join(tmpdir(), 'bindery-migrate-embedded-'));
    try {
      await chmod(root, 0o755); // as root, the embedded PostgreSQL runs as "postgres", which must enter the folder
      await mkdir(join(root, 'app'));
      await writeFile(join(root, 'package.json'), '{ "type": "module", "private": true }\n');
      await cp(join(cwd, 'migrations'), join(root, 'migrations'), { recursive: true });
      const runtimeApp = pathToFileURL(fileURLToPath(new URL('../../../runtime/app/index.js', import.meta.url))).href;
      await writeFile(
        join(root, 'app/main.ts'),
        `import { fileURLToPath } from 'node:url';
import { defineApp } from '${runtimeApp}';
export default defineApp({ name: 'embedded_status', root: fileURLToPath(new URL('..', import.meta.url)), routes: [], handlers: {}, migrations: [{ source: 'app', dir: 'migrations' }] });
`,
      );
      const r = await runCli(['migrate', '--status'], { cwd: root, env: { APP_KEY: generateAppKey(), LOG_LEVEL: 'info' } });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).not.toMatch(/"level"|WARN|connection lost/); // no log line at all, in either LOG_FORMAT
      expect(r.stdout).toMatch(/\n0 applied, 2 pending\.\n$/);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  }, 60_000);
});
