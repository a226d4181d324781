/**
 * `bindery new <dir>`: the refusals write nothing; a new project has its
 * files, an up-to-date generated/ without warnings, a list route for
 * `GET /notes`, a seed, and type-checks against this repository's package
 * (node_modules/bindery and the packages it shares with the project linked
 * to the repository's: a quick check). Installing from the checkout (`file:`)
 * and from a packed tarball with npm alone, and running the project's own
 * tests, build and make:resource: test/package/own-project.test.ts.
 */
import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url)).replace(/\/$/, '');
const run = promisify(execFile);

let base: string;
beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'bindery-new-'));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** Link the packages the project needs to this repository's (bindery itself included). */
async function linkModules(project: string): Promise<void> {
  await mkdir(join(project, 'node_modules'), { recursive: true });
  await symlink(REPO, join(project, 'node_modules', 'bindery'));
  for (const pkg of ['ajv', 'kysely', '@types', 'typescript', 'vitest'])
    await symlink(join(REPO, 'node_modules', pkg), join(project, 'node_modules', pkg));
}

async function typecheck(project: string): Promise<string> {
  const r = await run(join(REPO, 'node_modules/.bin/tsc'), ['--noEmit', '-p', project, '--customConditions', 'bindery-source']).catch(
    (e: { stdout: string }) => e,
  );
  return r.stdout;
}

/**
 * The starter's `GET /notes` is a list route with its indexes (no generator
 * warning), its handler the generated one-liner, and `generated/` is up to date.
 */
async function expectListStarter(dir: string): Promise<void> {
  const check = await runCli(['generate', '--check'], { cwd: dir });
  expect(check.stdout).toContain('generated/ is up to date.');
  expect(`${check.stdout}${check.stderr}`).not.toContain('warning');
  expect(check.code).toBe(0);
  const schema = await readFile(join(dir, 'schema/notes.yaml'), 'utf8');
  expect(schema).toMatch(/notes\.list:[\s\S]*?list:\n\s+resource: Note\n\s+sort: \[created_at, title\]/);
  expect(await readFile(join(dir, 'app/handlers/notes.ts'), 'utf8')).toContain(
    `'notes.list': (input, ctx) => lists['notes.list'](ctx, input),`,
  );
  const routes = await readFile(join(dir, 'generated/routes.ts'), 'utf8');
  for (const param of ["'filter[title]'", "'filter[created_at][gte]'", "name: 'cursor'"]) expect(routes, param).toContain(param);
  expect(await readFile(join(dir, 'app/seeds/0001_demo.ts'), 'utf8')).toContain('createFactories(db)');
}

describe('bindery new: refusals (exit 2, nothing written)', () => {
  it('refuses a non-empty directory', async () => {
    const dir = join(base, 'full');
    await mkdir(dir);
    await writeFile(join(dir, 'keep.txt'), 'mine');
    const r = await runCli(['new', dir], { cwd: base });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is not empty (keep.txt)');
    expect(r.stderr).toContain('nothing written');
    expect(await readdir(dir)).toEqual(['keep.txt']);
  });

  it('refuses a name that is not a valid npm package name', async () => {
    const r = await runCli(['new', 'My App'], { cwd: base });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('"My App" is not a valid npm package name');
    expect(existsSync(join(base, 'My App'))).toBe(false);
    const named = await runCli(['new', 'ok-dir', '--name', '.hidden'], { cwd: base });
    expect(named.code).toBe(2);
    expect(named.stderr).toContain('".hidden" is not a valid npm package name');
    expect(existsSync(join(base, 'ok-dir'))).toBe(false);
  });

  it('refuses an unknown option', async () => {
    const r = await runCli(['new', 'opt-app', '--no-such-thing'], { cwd: base });
    expect(r.code).toBe(2);
    expect(`${r.stdout}${r.stderr}`).toMatch(/Unsupported option|unknown/i);
    expect(existsSync(join(base, 'opt-app'))).toBe(false);
  });
});

describe('bindery new: a project', () => {
  it('writes the starter with every option, generated/ up to date, type-checking', async () => {
    const dir = join(base, 'my-app');
    const r = await runCli(['new', 'my-app'], { cwd: base });
    // Without a build (a fresh checkout), it notes that the file: package needs one; nothing else.
    expect(r.stderr.replace(/^Note: .* has no dist\/ yet; run "npm run build" there.*\n/m, '')).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Next steps:\n  cd my-app\n  npm install\n  npm start');

    for (const file of [
      'package.json',
      'tsconfig.json',
      'vitest.config.ts',
      'README.md',
      '.env.example',
      '.gitignore',
      '.ci/run',
      'schema/notes.yaml',
      'schema/accounts.yaml',
      'app/main.ts',
      'app/handlers/index.ts',
      'app/handlers/notes.ts',
      'app/handlers/accounts.ts',
      'app/auth/users.ts',
      'app/views/notes/new.eta',
      'app/views/layouts/main.eta',
      'app/seeds/0001_demo.ts',
      'test/notes.test.ts',
      'test/accounts.test.ts',
      'test/global-setup.ts',
      'generated/routes.ts',
      'generated/handlers.ts',
      'generated/types.ts',
      'generated/audit.ts',
      'generated/lists.ts',
      'generated/factories.ts',
    ])
      expect(existsSync(join(dir, file)), file).toBe(true);
    expect(statSync(join(dir, '.ci/run')).mode & 0o111).not.toBe(0);
    expect((await readdir(join(dir, 'generated/migrations'))).length).toBeGreaterThan(0);

    const pkg = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as {
      name: string;
      dependencies: Record<string, string>;
      scripts: Record<string, string>;
    };
    expect(pkg.name).toBe('my-app');
    expect(pkg.dependencies['bindery']).toBe(`file:${REPO}`);
    // A file: dependency installs as a packed copy, sharing the project's Kysely (test/package/own-project.test.ts).
    expect(await readFile(join(dir, '.npmrc'), 'utf8')).toMatch(/^install-links=true$/m);
    const own = JSON.parse(await readFile(join(REPO, 'package.json'), 'utf8')) as { engines: { node: string } };
    expect((pkg as unknown as { engines: { node: string } }).engines.node).toBe(own.engines.node);
    expect(pkg.scripts['test']).toContain('vitest run');
    expect(pkg.scripts['db:seed']).toBe('bindery db:seed');
    const readme = await readFile(join(dir, 'README.md'), 'utf8');
    expect(readme).toContain('npm run db:seed');
    expect(readme).not.toMatch(/\{\{\w+\}\}/);
    const main = await readFile(join(dir, 'app/main.ts'), 'utf8');
    for (const step of [
      'observability()',
      'audit({ tracked: trackedResources })',
      'cache()',
      'session()',
      'auth({ users:',
      'mail()',
      'jobs()',
    ])
      expect(main).toContain(step);
    // In the reference app's order: mail() after auth(), before jobs().
    expect(main).toMatch(/auth\(\{ users: [^\n]*\),\n\s+mail\(\),\n\s+jobs\(\),/);
    expect(main).toContain(`import { mail } from 'bindery/mail';`);
    const example = await readFile(join(dir, '.env.example'), 'utf8');
    expect(example).toMatch(/^APP_KEY=$/m);
    // Every setting of the chosen steps, documented and commented out (nothing set by the example).
    for (const name of [
      'OTEL_SDK_DISABLED',
      'AUDIT_IP',
      'CACHE_DRIVER',
      'SESSION_DRIVER',
      'AUTH_HOME_URL',
      'MAIL_DRIVER',
      'MAIL_HOST',
      'MAIL_FROM',
      'JOBS_CONCURRENCY',
    ])
      expect(example, name).toMatch(new RegExp(`^# ${name}=`, 'm'));
    expect(readme).toContain('npm install && npm start');
    // Production sends mail through SMTP: the README says what to set.
    expect(readme).toMatch(/^export MAIL_HOST=\S+ MAIL_FROM='[^']+'\s+# or MAIL_DRIVER=outbox/m);
    expect(readme).toContain('`MAIL_DRIVER=outbox`');

    await expectListStarter(dir);
    await linkModules(dir);
    expect(await typecheck(dir)).toBe('');
  }, 120_000);

  it('leaves out accounts, audit, mail and jobs when asked, and takes --bindery as given', async () => {
    const dir = join(base, 'lean');
    const r = await runCli(['new', dir, '--no-accounts', '--no-audit', '--no-jobs', '--no-mail', '--bindery', '^0.3.0'], { cwd: base });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    for (const file of [
      'schema/accounts.yaml',
      'app/auth/users.ts',
      'app/handlers/accounts.ts',
      'test/accounts.test.ts',
      'generated/audit.ts',
    ])
      expect(existsSync(join(dir, file)), file).toBe(false);
    const main = await readFile(join(dir, 'app/main.ts'), 'utf8');
    expect(main).toContain('session()');
    expect(main).toContain('observability()');
    for (const step of ['audit(', 'cache()', 'auth(', 'mail()', 'bindery/mail', 'jobs()']) expect(main).not.toContain(step);
    const example = await readFile(join(dir, '.env.example'), 'utf8');
    expect(example).toMatch(/^# SESSION_DRIVER=/m);
    for (const prefix of ['MAIL_', 'JOBS_', 'AUTH_', 'AUDIT_', 'CACHE_']) expect(example).not.toContain(prefix);
    expect(await readFile(join(dir, 'README.md'), 'utf8')).not.toContain('MAIL_');
    expect(await readFile(join(dir, 'app/handlers/notes.ts'), 'utf8')).not.toContain('models.Note');
    const pkg = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(pkg.dependencies['bindery']).toBe('^0.3.0');
    expect(existsSync(join(dir, '.npmrc'))).toBe(false);
    await expectListStarter(dir);
    await linkModules(dir);
    expect(await typecheck(dir)).toBe('');
  });

  it('--database mysql: the engine in package.json, MySQL DDL in generated/migrations/mysql/, a mysql:// DATABASE_URL', async () => {
    const dir = join(base, 'shop-mysql');
    const r = await runCli(['new', 'shop-mysql', '--database', 'mysql', '--bindery', '^0.3.0', '--no-jobs', '--no-mail'], { cwd: base });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      'npm start        # http://127.0.0.1:3000/notes (on DATABASE_URL in .env: mysql://root@127.0.0.1:3306/shop_mysql)',
    );
    const pkg = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as { bindery: unknown };
    expect(pkg.bindery).toEqual({ databases: ['mysql'] });
    expect(await readdir(join(dir, 'generated/migrations'))).toEqual(['mysql']);
    const [migration] = await readdir(join(dir, 'generated/migrations/mysql'));
    const ddl = await readFile(join(dir, 'generated/migrations/mysql', migration!), 'utf8');
    expect(ddl).toContain('CREATE TABLE `notes` (\n  `id` BIGINT AUTO_INCREMENT PRIMARY KEY,');
    expect(ddl).toContain(') ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;');
    expect(ddl).not.toContain('timestamptz');
    const example = await readFile(join(dir, '.env.example'), 'utf8');
    expect(example).toMatch(/^DATABASE_URL=mysql:\/\/root@127\.0\.0\.1:3306\/shop_mysql$/m);
    expect(example).not.toContain('runs an embedded PostgreSQL');
    const readme = await readFile(join(dir, 'README.md'), 'utf8');
    expect(readme).toContain('DATABASE_URL=mysql://user:password@host:3306/db');
    expect(readme).not.toContain('embedded PostgreSQL under .data/');
    expect(readme).not.toMatch(/\{\{\w+\}\}/);
    // Its tests run on a MySQL or MariaDB server too, not on an embedded PostgreSQL.
    const setup = await readFile(join(dir, 'test/global-setup.ts'), 'utf8');
    expect(setup).toContain("startTestServer({ engine: 'mariadb' })");
    expect(setup).not.toMatch(/\{\{\w+\}\}/);
    await expectListStarter(dir);
  });

  it('--database postgres is the default, recorded too; another engine is refused, nothing written', async () => {
    const dir = join(base, 'shop-pg');
    expect((await runCli(['new', 'shop-pg', '--database', 'postgres', '--bindery', '^0.3.0', '--no-accounts'], { cwd: base })).code).toBe(
      0,
    );
    expect((JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as { bindery: unknown }).bindery).toEqual({
      databases: ['postgres'],
    });
    expect((await readdir(join(dir, 'generated/migrations'))).every((f) => f.endsWith('.sql'))).toBe(true);
    expect(await readFile(join(dir, 'README.md'), 'utf8')).toContain('DATABASE_URL=postgres://user:password@host:5432/db');
    const refused = await runCli(['new', 'shop-sqlite', '--database', 'sqlite'], { cwd: base });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      'new: --database "sqlite" is not an engine bindery writes migrations for; use postgres or mysql (mysql also for MariaDB); nothing written.\n',
    );
    expect(existsSync(join(base, 'shop-sqlite'))).toBe(false);
  });
});
