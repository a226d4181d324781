/**
 * Loading plugins (docs/spec.md 7 rule 9, docs/spec.md 9): list order, each
 * boot error, namespaces, mounts, migrations — real PostgreSQL, real HTTP.
 */
import { fileURLToPath } from 'node:url';
import { Command } from 'clipanion';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, defineApp, type SetupStep } from '../../../runtime/app/index.js';
import { AppCommand } from '../../../runtime/app/app-command.js';
import { defineSettings, integerSetting, SettingsError, stringSetting } from '../../../runtime/config/index.js';
import { defineEvent, defineListener, events } from '../../../runtime/events/index.js';
import { defineJob, jobs } from '../../../runtime/jobs/index.js';
import { jobsRuntimeOf } from '../../../runtime/jobs/jobs-runtime.js';
import { definePlugin, plugins, type PluginSpec } from '../../../runtime/plugins/index.js';
import { RESERVED_PLUGIN_NAMES } from '../../../runtime/plugins/reserved-names.js';
import {
  PluginError,
  PluginNameReservedError,
  PluginNameTakenError,
  PluginNeedsSetupError,
  PluginVersionError,
} from '../../../runtime/plugins/errors.js';
import { isPluginStep } from '../../../runtime/plugins/plugin-step.js';
import { FRAMEWORK_VERSION } from '../../../runtime/plugins/framework-version.js';
import { text } from '../../../runtime/results/index.js';
import type { RequestContext } from '../../../runtime/http/context.js';
import type { RouteDefinition } from '../../../runtime/routing/route-table.js';
import { defineScheduledTask, schedule } from '../../../runtime/schedule/index.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';

const root = fileURLToPath(new URL('.', import.meta.url));
const RANGE = '>=0.3.0 <0.4.0';

function route(name: string, path: string, middleware: string[] = []): RouteDefinition {
  return {
    name,
    method: 'GET',
    path,
    group: null,
    middleware,
    result: 'text',
    fields: [],
    validate: null,
    output: null,
    origin: `test ${name}`,
  };
}

function plugin(name: string, extra: Partial<PluginSpec<any>> = {}) {
  return definePlugin({ name, bindery: RANGE, ...extra } as PluginSpec<any>);
}

function app(setup: SetupStep[]) {
  return defineApp({ name: 'plugins_test', root, routes: [], handlers: {}, migrations: [], setup });
}

const order: string[] = [];

const greeterSettings = defineSettings({
  GREETER_GREETING: { description: 'What it says.', parser: stringSetting(), required: true },
  GREETER_TIMES: { description: 'How often.', parser: integerSetting({ min: 1, max: 3 }), default: '1' },
});

const greeter = plugin('greeter', {
  settings: greeterSettings,
  routes: {
    table: [route('greeter.hello', '/greeter/hello', ['greeter.shout'])],
    handlers: {
      'greeter.hello': (_input: unknown, ctx: RequestContext) =>
        text((ctx.services as unknown as { greeter: { line: string } }).greeter.line),
    },
    middleware: {
      'greeter.shout': async (_ctx, next) => {
        const r = (await next()) as { body: string };
        return text(r.body.toUpperCase());
      },
    },
  },
  jobs: [defineJob({ name: 'greeter:wave', handle() {} })],
  setup(ctx) {
    order.push('greeter');
    const settings = ctx.settings as { GREETER_GREETING: string; GREETER_TIMES: number };
    (ctx.services as unknown as Record<string, unknown>).greeter = {
      line: Array(settings.GREETER_TIMES).fill(settings.GREETER_GREETING).join(' '),
    };
  },
});

const counter = plugin('counter', {
  root,
  migrations: 'fixtures/counter-migrations',
  schedule: [defineScheduledTask({ name: 'counter:tick', cron: '0 * * * *', run() {} })],
  events: [defineEvent({ name: 'counter:counted' })],
  listeners: [defineListener({ name: 'counter:hear', event: 'greeter:greeted', mode: 'async', handle() {} })],
  routes: { table: [route('counter.show', '/counter')], handlers: { 'counter.show': () => text('0') } },
  setup() {
    order.push('counter');
  },
});

describe('Plugins | loading, in list order, last in setup', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('plugins');
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('adds settings, migrations, jobs, tasks, listeners, middleware and routes, then runs boot work, plugin by plugin', async () => {
    order.length = 0;
    const steps = plugins([greeter, counter], { mount: { counter: '/admin/counter' } });
    expect(steps.map((s) => s.name)).toEqual(['plugin:greeter', 'plugin:counter']);
    expect(steps.every(isPluginStep)).toBe(true);
    const first: SetupStep = {
      name: 'marker',
      setup: () => {
        order.push('app step');
      },
    };
    const t = await createTestApp(app([first, jobs(), schedule(), events(), ...steps]), {
      databaseUrl: database.url,
      env: { GREETER_GREETING: 'hi', GREETER_TIMES: '2' },
    });
    try {
      expect(order).toEqual(['app step', 'greeter', 'counter']);
      const hello = await fetch(`${t.url}/greeter/hello`);
      expect(await hello.text()).toBe('HI HI');
      expect(await (await fetch(`${t.url}/admin/counter`)).text()).toBe('0');
      expect((await fetch(`${t.url}/counter`)).status).toBe(404);
      const runtime = jobsRuntimeOf(t.running.services)!;
      expect(runtime.task('greeter:wave')).toMatchObject({ kind: 'job', owner: 'the plugin "greeter"' });
      expect(runtime.task('counter:tick')).toMatchObject({ kind: 'schedule', owner: 'the plugin "counter"' });
      expect(runtime.task('counter:hear')).toMatchObject({ kind: 'listener', owner: 'the plugin "counter"' });
      const migrations = await sql<{
        source: string;
        name: string;
      }>`select source, name from bindery_migrations order by source, name`.execute(t.db);
      expect(migrations.rows).toEqual([
        { source: 'counter', name: '0001_create_counter_hits.sql' },
        { source: 'jobs', name: '0001_create_jobs_worker_heartbeats.sql' }, // the jobs() step's own set
      ]);
      await sql`insert into counter_hits default values`.execute(t.db);
    } finally {
      await t.close();
    }
  });
});

describe('Plugins | boot errors', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('plugin_errors');
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('refuses an entry that is not a plugin, a bad name, a reserved name, a name taken', () => {
    expect(() => plugins([{ name: 'greeter', bindery: RANGE }])).toThrow(PluginError);
    expect(() => plugins([{ name: 'greeter', bindery: RANGE }])).toThrow('entry 1 of the plugin list is not a plugin');
    expect(() => plugins([plugin('Greeter')])).toThrow('Plugin name "Greeter" (entry 1 of the plugin list) is invalid');
    expect(() => plugins([plugin('mail-provider')])).toThrow(PluginError);
    for (const name of ['auth', 'session', 'queue', 'health', 'audit', 'jobs', 'schedule', 'events', 'app', 'cache', 'mail']) {
      expect(RESERVED_PLUGIN_NAMES).toContain(name);
      expect(() => plugins([plugin(name)]), name).toThrow(PluginNameReservedError);
    }
    expect(() => plugins([greeter, counter, plugin('greeter')])).toThrow(PluginNameTakenError);
    expect(() => plugins([greeter, plugin('greeter')])).toThrow('Two plugins are named "greeter"');
  });

  it('refuses a plugin for another framework version, saying which way, and a range that is not one', () => {
    expect(FRAMEWORK_VERSION).toBe('0.3.0');
    expect(() => plugins([plugin('future', { bindery: '>=0.4.0' })])).toThrow(PluginVersionError);
    expect(() => plugins([plugin('future', { bindery: '>=0.4.0' })])).toThrow(
      'the plugin "future" requires bindery >=0.4.0; this app runs bindery 0.3.0, which is older',
    );
    expect(() => plugins([plugin('past', { bindery: '>=0.2.0 <0.3.0' })])).toThrow('which is newer than the plugin supports');
    expect(() => plugins([plugin('odd', { bindery: 'soon' })])).toThrow(PluginError);
  });

  it('checks in order: the name before the range, the range before the settings, the settings before the setup steps', async () => {
    expect(() => plugins([plugin('session', { bindery: '>=9.0.0' })])).toThrow(PluginNameReservedError);
    expect(() => plugins([plugin('future', { bindery: '>=9.0.0', settings: greeterSettings })])).toThrow(PluginVersionError);
    // Settings are checked with the app's, before any setup step runs (and before the missing jobs() is noticed).
    const needy = plugin('needy', {
      settings: defineSettings({ NEEDY_KEY: { description: 'k', parser: stringSetting(), required: true } }),
      jobs: [defineJob({ name: 'needy:work', handle() {} })],
    });
    const error = await createTestApp(app(plugins([needy])), { databaseUrl: database.url }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SettingsError);
    expect((error as Error).message).toContain('NEEDY_KEY is missing');
  });

  it('missing or invalid settings stop the boot, naming each', async () => {
    const missing = await createTestApp(app([jobs(), ...plugins([greeter])]), { databaseUrl: database.url }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(SettingsError);
    expect((missing as SettingsError).problems.map((p) => p.names)).toEqual([['GREETER_GREETING']]);
    const invalid = await createTestApp(app([jobs(), ...plugins([greeter])]), {
      databaseUrl: database.url,
      env: { GREETER_GREETING: 'hi', GREETER_TIMES: '9' },
    }).catch((e: unknown) => e);
    expect((invalid as Error).message).toContain('GREETER_TIMES="9": above the maximum 3');
  });

  it('a plugin needing a service that is not set up fails the boot naming the setup call', async () => {
    const cases: [ReturnType<typeof plugin>, SetupStep[], string][] = [
      [plugin('worky', { jobs: [defineJob({ name: 'worky:go', handle() {} })] }), [], 'jobs()'],
      [plugin('timely', { schedule: [defineScheduledTask({ name: 'timely:go', cron: '* * * * *', run() {} })] }), [jobs()], 'schedule()'],
      [plugin('listening', { listeners: [defineListener({ name: 'listening:go', event: 'x:y', handle() {} })] }), [jobs()], 'events()'],
      [plugin('sessiony', { requires: [{ name: 'session', call: 'session()' }] }), [jobs()], 'session()'],
    ];
    for (const [p, before, call] of cases) {
      const error = await createTestApp(app([...before, ...plugins([p])]), { databaseUrl: database.url, migrate: false }).catch(
        (e: unknown) => e,
      );
      expect(error, call).toBeInstanceOf(PluginNeedsSetupError);
      expect((error as Error).message).toBe(
        `The plugin "${p.name}" needs ${call} set up before it: add ${call} to the setup list of app/main.ts, before ...plugins(…).`,
      );
    }
  });

  it('refuses what a plugin adds outside its namespace', () => {
    class Stray extends AppCommand {
      static override paths = [['stray']];
      static override usage = Command.Usage({ description: 'x' });
      protected async run() {
        return 0;
      }
    }
    const bad: [Partial<PluginSpec<any>>, string][] = [
      [
        { settings: defineSettings({ GREETING: { description: 'x', parser: stringSetting() } }) },
        'the setting GREETING must start with GREETER_',
      ],
      [{ commands: [Stray] }, 'the command "stray" must be named greeter:…'],
      [{ jobs: [defineJob({ name: 'other:job', handle() {} })] }, 'the job "other:job" must be named greeter:…'],
      [
        { schedule: [defineScheduledTask({ name: 'other:task', cron: '* * * * *', run() {} })] },
        'the scheduled task "other:task" must be named greeter:…',
      ],
      [{ listeners: [defineListener({ name: 'app:hear', event: 'x:y', handle() {} })] }, 'the listener "app:hear" must be named greeter:…'],
      [
        { routes: { table: [route('other.hello', '/greeter/hello')], handlers: { 'other.hello': () => text('') } } },
        'the route "other.hello" must be named greeter.…',
      ],
      [
        { routes: { table: [route('greeter.hello', '/hello')], handlers: { 'greeter.hello': () => text('') } } },
        'the route "greeter.hello" (/hello) must sit under /greeter',
      ],
      [
        { routes: { table: [route('greeter.hello', '/greeter')], handlers: {}, middleware: {} } },
        'the route "greeter.hello" has no handler',
      ],
      [
        {
          routes: {
            table: [route('greeter.hello', '/greeter')],
            handlers: { 'greeter.hello': () => text('') },
            middleware: { shout: async (_c, n) => n() },
          },
        },
        'the middleware "shout" must be named greeter.…',
      ],
      [{ migrations: 'migrations' }, 'it has migrations but no absolute root'],
    ];
    for (const [spec, message] of bad) expect(() => plugins([plugin('greeter', spec)]), message).toThrow(message);
    expect(() => plugins([greeter], { mount: { other: '/x' } })).toThrow(
      'plugins(…, { mount }) names "other", which is not in the plugin list.',
    );
    expect(() => plugins([greeter], { mount: { greeter: 'nope' } })).toThrow(PluginError);
  });
});
