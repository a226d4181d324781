/**
 * The packed package, installed as a new user would (docs/package.md#building-and-packing):
 * `npm pack` (in a copy of the repository, so its build does not touch this
 * checkout) → `bindery new --bindery <tarball>` in a folder outside the
 * repository → `npm install` → `npx bindery --version`, the project's type
 * check and build; in development its migrations, seed and own tests (`npm
 * test`) pass → under `NODE_ENV=production`, with tsx moved out of
 * node_modules, `migrate` and `serve` answer the starter's routes. A type
 * error fails the build; a missing or stale build is refused.
 */
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateAppKey } from '../../runtime/config/app-key.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { copyContext } from '../deploy/dockerfile.js';
import { baseEnv, command, start, type Running } from '../deploy/processes.js';

const REPO = join(import.meta.dirname, '../..');
const work = mkdtempSync(join(tmpdir(), 'bindery-tarball-'));
const project = join(work, 'starter');
const npmEnv = baseEnv({
  npm_config_prefer_offline: 'true',
  npm_config_update_notifier: 'false',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
});
const version = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
let database: TestDatabase;
let server: Running | undefined;

/** Run to the end; its stdout, or an error with all its output when it fails. */
async function ok(argv: string[], cwd: string, env = npmEnv, timeoutMs = 180_000): Promise<string> {
  const r = await command(argv, cwd, env, timeoutMs);
  if (r.code !== 0) throw new Error(`${argv.join(' ')} exited ${r.code} in ${cwd}:\n${r.output}`);
  return r.stdout;
}

beforeAll(async () => {
  database = await createTestDatabase('tarball');
  const copy = join(work, 'bindery');
  copyContext(REPO, copy);
  const packed = await ok(['npm', 'pack', '--pack-destination', work], copy);
  const tarball = join(work, packed.trim().split('\n').at(-1)!.trim());
  expect(existsSync(tarball), packed).toBe(true);
  await ok([process.execPath, join(copy, 'bin/bindery.mjs'), 'new', project, '--bindery', tarball], work);
  await ok(['npm', 'install'], project);
}, 300_000);

afterAll(async () => {
  await server?.stop();
  await database?.drop();
  rmSync(work, { recursive: true, force: true });
});

describe('a project made from the packed tarball', () => {
  it('has the bindery command, type-checks and builds', async () => {
    expect((await ok(['npx', 'bindery', '--version'], project)).trim()).toBe(version);
    await ok(['npm', 'run', 'typecheck'], project);
    const built = await ok(['npm', 'run', 'build'], project);
    expect(built).toMatch(/Built build\/ in [\d.]+ s: \d+ modules compiled/);
    expect(existsSync(join(project, 'build/app/main.js'))).toBe(true);
    expect(existsSync(join(project, 'build/app/views/notes/new.eta'))).toBe(true);
    const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    expect(Object.keys(pkg.devDependencies)).toContain('tsx');
  }, 180_000);

  it('migrates and seeds in development, and passes its own tests (npm test)', async () => {
    const dev = await createTestDatabase('tarball_dev');
    try {
      const env = { ...npmEnv, DATABASE_URL: dev.url, APP_KEY: generateAppKey(), LOG_LEVEL: 'warn' };
      expect(await ok(['npx', 'bindery', 'migrate'], project, env)).toMatch(/Migrations: applied \d+/);
      const seeded = await ok(['npm', 'run', 'db:seed'], project, env);
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
    // The starter's tests on this run's PostgreSQL server: the kit makes a database per test file.
    const tested = await ok(['npm', 'test'], project, { ...npmEnv, DATABASE_URL: database.url }, 240_000);
    expect(tested).toMatch(/Test Files\s+2 passed/); // test/notes.test.ts and test/accounts.test.ts
  }, 300_000);

  it('refuses a type error at build time, and a missing or stale build under NODE_ENV=production', async () => {
    const main = join(project, 'app/main.ts');
    const source = readFileSync(main, 'utf8');
    const production = { ...npmEnv, NODE_ENV: 'production' };
    try {
      writeFileSync(main, `${source}\nexport const broken: number = 'text';\n`);
      const failed = await command(['npx', 'bindery', 'build'], project, npmEnv);
      expect(failed.code).toBe(1);
      expect(failed.output).toMatch(/The build failed: tsc reported\n\s+app\/main\.ts\(\d+,\d+\): error TS2322/);
      const missing = await command(['npx', 'bindery', 'migrate', '--status'], project, production);
      expect(missing.code).toBe(1);
      expect(missing.output).toContain('NODE_ENV=production runs the compiled app, but no build at build/');

      writeFileSync(main, source);
      await ok(['npx', 'bindery', 'build'], project);
      writeFileSync(main, `${source}\n// edited after the build\n`);
      const stale = await command(['npx', 'bindery', 'migrate', '--status'], project, production);
      expect(stale.code).toBe(1);
      expect(stale.output).toContain('build/ is stale: app/main.ts changed since the build');
    } finally {
      writeFileSync(main, source);
    }
  }, 120_000);

  it('migrates and serves the build under plain node, without tsx', async () => {
    renameSync(join(project, 'node_modules/tsx'), join(work, 'tsx-moved-away'));
    const env = baseEnv({
      NODE_ENV: 'production',
      APP_ENV: 'production',
      DATABASE_URL: database.url,
      APP_KEY: generateAppKey(),
      HTTP_ADDR: '127.0.0.1:0',
      MAIL_DRIVER: 'outbox',
      LOG_LEVEL: 'warn',
      SESSION_SECURE: 'false',
    });
    const bin = join(project, 'node_modules/bindery/bin/bindery.mjs');
    expect(await ok([process.execPath, bin, 'migrate'], project, env)).toMatch(/Migrations: applied \d+/);
    server = await start([process.execPath, bin, 'serve'], project, env, /Serving \S+ at http:\/\/\S+/);
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
    expect(page.next).toBeNull();
    const form = await fetch(`${url}/notes/new`);
    expect(form.status).toBe(200);
    expect(await form.text()).toMatch(/<form[^>]*>/);
    expect(await server.stop()).toBe(0);
  }, 120_000);
});
