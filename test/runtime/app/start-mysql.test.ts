/**
 * Booting on a mysql:// or mariadb:// DATABASE_URL (docs/boot.md "Boot
 * sequence"; docs/database.md "Choosing the server"): no embedded
 * PostgreSQL, advice naming the right server, readiness from the engine,
 * migrations from the sets' mysql/ folders, and the steps' errors naming
 * DATABASE_URL.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineApp, startApp, type App } from '../../../runtime/app/index.js';
import type { SetupStep } from '../../../runtime/app/setup-step.js';
import { generateAppKey } from '../../../runtime/config/app-key.js';
import type { RequestContext } from '../../../runtime/http/context.js';
import { redactUrl } from '../../../runtime/db/redact-url.js';
import { JobsEngineUnsupportedError } from '../../../runtime/jobs/errors.js';
import type { RouteDefinition } from '../../../runtime/routing/route-table.js';
import { freePort } from '../../../runtime/support/free-port.js';
import { createTestMariaDatabase, type TestDatabase } from '../../support/database.js';

const countRoute: RouteDefinition = {
  name: 'things.count',
  method: 'GET',
  path: '/things/count',
  group: null,
  middleware: [],
  result: 'ok',
  fields: [],
  validate: null,
  output: null,
  origin: 'test/runtime/app/start-mysql.test.ts',
};

describe('startApp | on MariaDB (DATABASE_URL=mariadb://…)', () => {
  let root: string;
  let db: TestDatabase;
  const appOf = (setup: SetupStep[] = []): App =>
    defineApp({
      name: 'mysql_boot',
      root,
      routes: [countRoute],
      handlers: {
        async 'things.count'(_input: unknown, ctx: RequestContext) {
          const kysely = (ctx.services as unknown as { db: Kysely<{ things: { id: number } }> }).db;
          const rows = await kysely.selectFrom('things').select('id').execute();
          return { count: rows.length };
        },
      },
      migrations: [{ source: 'app', dir: 'migrations' }],
      setup,
    });
  const start = (app: App, env: Record<string, string>, options: { migrate?: boolean } = {}) =>
    startApp(app, {
      env: { APP_KEY: generateAppKey(), LOG_LEVEL: 'silent', HTTP_ADDR: '127.0.0.1:0', ...env },
      handleSignals: false,
      out: () => {},
      ...options,
    });
  const failure = (app: App, env: Record<string, string>, options: { migrate?: boolean } = {}) =>
    start(app, env, options).then(
      async (running) => {
        await running.close();
        throw new Error('expected the boot to fail');
      },
      (error: unknown) => error as Error & { code?: string; cause?: unknown },
    );

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'bindery-boot-mysql-'));
    await mkdir(join(root, 'migrations', 'mysql'), { recursive: true });
    await writeFile(
      join(root, 'migrations', 'mysql', '0001_create_things.sql'),
      'CREATE TABLE things (id INT PRIMARY KEY);\nINSERT INTO things VALUES (1), (2);\n',
    );
    db = await createTestMariaDatabase('boot_mysql');
  });
  afterAll(async () => {
    await db.drop();
    await rm(root, { recursive: true, force: true });
  });

  it('an unreachable server: advice for MySQL or MariaDB, never PostgreSQL or the embedded server', async () => {
    const port = await freePort();
    const url = `mariadb://app:secret@127.0.0.1:${port}/notes`;
    const production = await failure(appOf(), { APP_ENV: 'production', DATABASE_URL: url });
    expect(production.code).toBe('BINDERY_DATABASE_UNREACHABLE');
    expect(production.message).toMatch(
      new RegExp(`^Cannot connect to the database at mariadb://app:\\*\\*\\*@127\\.0\\.0\\.1:${port}/notes: `),
    );
    expect(production.message).toMatch(
      /Check that the MySQL or MariaDB server is up and reachable from here, and DATABASE_URL \(host, port, user, password, database\)\.$/,
    );
    const development = await failure(appOf(), { APP_ENV: 'development', DATABASE_URL: url.replace('mariadb:', 'mysql:') });
    expect(development.message).toMatch(
      /Start the MySQL or MariaDB server or fix DATABASE_URL \(host, port, user, password, database\)\.$/,
    );
    for (const error of [production, development]) {
      expect(error.message).not.toMatch(/PostgreSQL|embedded/);
      expect(error.message).not.toContain('secret');
    }
    expect(existsSync(join(root, '.data')), 'no embedded PostgreSQL').toBe(false);
  });

  it('serves with pending migrations reported, ready once migrated: the database check reads the engine, migrations the mysql/ folder', async () => {
    const unmigrated = await start(appOf(), { DATABASE_URL: db.url });
    try {
      expect(unmigrated.database.engine.name).toBe('mariadb');
      const before = await fetch(`${unmigrated.url}/health/ready`);
      expect(before.status).toBe(503);
      expect((await before.json()) as unknown).toMatchObject({ checks: { database: 'ok', migrations: '1 pending' } });
    } finally {
      await unmigrated.close();
    }
    const running = await start(appOf(), { DATABASE_URL: db.url }, { migrate: true });
    try {
      const ready = await fetch(`${running.url}/health/ready`);
      expect(ready.status).toBe(200);
      expect((await ready.json()) as unknown).toMatchObject({ checks: { database: 'ok', migrations: 'ok' } });
      expect(await fetch(`${running.url}/things/count`).then((r) => r.json())).toEqual({ count: 2 });
    } finally {
      await running.close();
    }
    expect(existsSync(join(root, '.data')), 'no embedded PostgreSQL').toBe(false);
  });

  it("a step's set without a mysql/ folder stops the boot before anything runs, naming the set, the step and MariaDB", async () => {
    const legacy = join(root, 'legacy');
    await mkdir(legacy, { recursive: true });
    await writeFile(join(legacy, '0001_create_legacy.sql'), 'create table legacy (id bigserial primary key);');
    const step: SetupStep = { name: 'legacy', migrations: [{ source: 'legacy', dir: legacy }] };
    for (const migrate of [false, true]) {
      const error = await failure(appOf([step]), { DATABASE_URL: db.url }, { migrate });
      expect(error.code).toBe('BINDERY_MIGRATION_ENGINE_MISSING');
      expect(error.message).toMatch(/^The migration set "legacy" \(added by legacy\(\)\) has no migrations for MariaDB: /);
      expect(error.message).toContain('or leave legacy() out of the setup list.');
    }
  });

  it('a subsystem without a MySQL strategy stops the boot with its own coded error, naming the step and DATABASE_URL', async () => {
    const step: SetupStep = {
      name: 'queue',
      call: 'queue()',
      setup() {
        throw new JobsEngineUnsupportedError('The job queue has no backend for the database engine "mariadb" yet.');
      },
    };
    const error = await failure(appOf([step]), { DATABASE_URL: db.url }, { migrate: true });
    expect(error).toBeInstanceOf(JobsEngineUnsupportedError);
    expect(error.code).toBe('BINDERY_JOBS_ENGINE_UNSUPPORTED');
    expect(error.message).toBe(
      `queue() cannot start on the MariaDB database of DATABASE_URL (${redactUrl(db.url)}): The job queue has no backend for the database engine "mariadb" yet.`,
    );
  });

  it('an uncoded error of a step (a statement the server refused) is a BINDERY_SETUP_INVALID naming the step and DATABASE_URL', async () => {
    const step: SetupStep = {
      name: 'pgonly',
      async setup(ctx) {
        await ctx.database.engine.run('select 1::int');
      },
    };
    const error = await failure(appOf([step]), { DATABASE_URL: db.url }, { migrate: true });
    expect(error.code).toBe('BINDERY_SETUP_INVALID');
    expect(error.message).toMatch(
      /^pgonly\(\) failed on the MariaDB database of DATABASE_URL \(mariadb:\/\/[^)]*\): You have an error in your SQL syntax; /,
    );
    expect(error.message).toMatch(
      /The step may not run on MariaDB yet: docs\/database\.md "MySQL and MariaDB" says what does; run the app on a postgres:\/\/ DATABASE_URL, or leave pgonly\(\) out of the setup list\.$/,
    );
    expect((error.cause as { errno?: number }).errno).toBe(1064);
  });
});
