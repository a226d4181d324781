import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, defineApp, startApp, type SetupStep, type TestApp } from '../../../runtime/app/index.js';
import { SetupError } from '../../../runtime/app/errors.js';
import { defineSettings, integerSetting, SettingsError } from '../../../runtime/config/index.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import slowApp from './fixtures/slow-app.js';

describe('createTestApp | boots an app against a test database', () => {
  let db: TestDatabase;
  let t: TestApp;
  beforeAll(async () => {
    db = await createTestDatabase('test_app');
    t = await createTestApp(slowApp, { databaseUrl: db.url });
  });
  afterAll(async () => {
    await t.close();
    await db.drop();
  });

  it('listens on a free port of 127.0.0.1, migrated, ready', async () => {
    expect(t.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetch(`${t.url}/health/ready`)).status).toBe(200);
    expect(await fetch(`${t.url}/things/count`).then((r) => r.json())).toEqual({ count: 2 });
  });

  it('exposes Kysely and the Fastify instance', async () => {
    const rows = await t.db.selectFrom('things').select('name').orderBy('id').execute();
    expect(rows).toEqual([{ name: 'first' }, { name: 'second' }]);
    const res = await t.app.inject({ method: 'GET', url: '/health/live' });
    expect(res.statusCode).toBe(200);
  });

  it('uses the test settings: APP_ENV=testing, a fresh key', () => {
    expect(t.running.settings.APP_ENV).toBe('testing');
    expect(t.running.settings.APP_KEY).toHaveLength(32);
  });
});

describe('startApp | setup steps and failures', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('setup_steps');
  });
  afterAll(async () => {
    await db.drop();
  });

  const counter = defineSettings({ COUNTER_START: { description: 'First value.', parser: integerSetting({ min: 0 }), default: '5' } });

  it('runs steps in order with their settings, services, readiness checks and close hooks', async () => {
    const log: string[] = [];
    const cache: SetupStep = {
      name: 'cache',
      settings: counter,
      setup(ctx) {
        const s = ctx.settingsOf(counter);
        ctx.services.counter = s.COUNTER_START;
        ctx.addReadinessCheck('cache', async () => 'ok');
        ctx.onClose(() => {
          log.push('cache closed');
        });
      },
    };
    const auth: SetupStep = {
      name: 'auth',
      requires: [{ name: 'cache', call: 'cache()' }],
      setup(ctx) {
        log.push(`auth sees ${[...ctx.done].join(',')} and counter ${String(ctx.services.counter)}`);
        ctx.addReadinessCheck('auth', async () => 'warming up');
        ctx.onClose(() => {
          log.push('auth closed');
        });
      },
    };
    const app = defineApp({ ...slowApp, setup: [cache, auth] });
    const t = await createTestApp(app, { databaseUrl: db.url, env: { COUNTER_START: '7' } });
    try {
      expect(log).toEqual(['auth sees cache and counter 7']);
      const ready = await fetch(`${t.url}/health/ready`);
      expect(ready.status).toBe(503);
      expect(await ready.text()).toContain('warming up');
    } finally {
      await t.close();
    }
    expect(log.slice(1)).toEqual(['auth closed', 'cache closed']);
  });

  it('a step before one it needs, or twice, is refused naming the setup call', () => {
    const cache: SetupStep = { name: 'cache' };
    const auth: SetupStep = { name: 'auth', requires: [{ name: 'cache', call: 'cache()' }] };
    expect(() => defineApp({ ...slowApp, setup: [auth, cache] })).toThrow(
      new SetupError('auth() needs cache() set up before it: move cache() before auth() in the setup list of app/main.ts.'),
    );
    expect(() => defineApp({ ...slowApp, setup: [auth] })).toThrow(
      'auth() needs cache() set up before it: add cache() before auth() in the setup list of app/main.ts.',
    );
    expect(() => defineApp({ ...slowApp, setup: [cache, cache] })).toThrow('cache() is set up twice in this app; keep one.');
  });

  it("a step's bad setting is listed with the core ones, before anything starts", async () => {
    const app = defineApp({ ...slowApp, setup: [{ name: 'cache', settings: counter }] });
    const error = await startApp(app, {
      env: { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', COUNTER_START: '-1', APP_ENV: 'nope' },
      handleSignals: false,
      out: () => {},
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SettingsError);
    expect((error as SettingsError).problems.map((p) => p.names[0])).toEqual(['APP_ENV', 'APP_KEY', 'COUNTER_START']);
  });

  it('a taken address fails with a coded error and closes what it opened', async () => {
    const first = await createTestApp(slowApp, { databaseUrl: db.url });
    try {
      const error = await startApp(slowApp, {
        env: {
          DATABASE_URL: db.url,
          APP_KEY: 'base64:' + Buffer.alloc(32).toString('base64'),
          HTTP_ADDR: `127.0.0.1:${first.running.address.port}`,
          LOG_LEVEL: 'silent',
        },
        handleSignals: false,
        out: () => {},
      }).catch((e: unknown) => e);
      expect((error as { code?: string }).code).toBe('BINDERY_LISTEN_FAILED');
      expect((error as Error).message).toBe(
        `Cannot listen on 127.0.0.1:${first.running.address.port} (HTTP_ADDR): the port is in use. Stop what listens there, or set HTTP_ADDR to a free host:port.`,
      );
    } finally {
      await first.close();
    }
  });
});
