/**
 * The reference app boots without warnings about its own defaults
 * (docs/settings.md "Core settings"): a first development run (nothing set
 * but what is required) and a production boot (`NODE_ENV=production`, with
 * `APP_ENV` and `DEV_DASHBOARD` unset) write no warning at all; a value
 * someone set is still warned about.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import app from '../../app/main.js';
import { startApp } from '../../runtime/app/index.js';
import { generateAppKey } from '../../runtime/config/app-key.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { referenceAppEnv } from '../support/reference-app-env.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase('boot_warnings');
});
afterAll(async () => {
  await database?.drop();
});

/** Boot the reference app with `env`, then shut it down; its log lines (JSON). */
async function bootLines(env: Record<string, string>): Promise<Array<Record<string, unknown>>> {
  const lines: string[] = [];
  const running = await startApp(app, {
    env: {
      ...referenceAppEnv,
      APP_KEY: generateAppKey(),
      DATABASE_URL: database.url,
      HTTP_ADDR: '127.0.0.1:0',
      LOG_FORMAT: 'json',
      ...env,
    },
    migrate: true,
    handleSignals: false,
    out: () => {},
    logDestination: { write: (line: string) => lines.push(line) },
  });
  await running.close();
  return lines.map((l) => JSON.parse(l) as Record<string, unknown>);
}

const warnings = (lines: Array<Record<string, unknown>>) => lines.filter((l) => Number(l['level']) >= 40).map((l) => l['msg']);

describe('reference app | no warning about its own defaults', () => {
  it('a first development run (APP_URL at its default http://127.0.0.1:3000) warns about nothing', async () => {
    expect(warnings(await bootLines({}))).toEqual([]);
  }, 60_000);

  it('production by NODE_ENV=production alone (DEV_DASHBOARD unset) warns about nothing', async () => {
    const production = {
      NODE_ENV: 'production',
      APP_URL: 'https://notes.example.com',
      MAIL_HOST: 'smtp.example.com',
      MAIL_FROM: 'Notes <no-reply@example.com>',
    };
    expect(warnings(await bootLines(production))).toEqual([]);
  }, 60_000);

  it('what someone set is still warned about: APP_URL set to an IP address, DEV_DASHBOARD=true in production', async () => {
    const set = warnings(
      await bootLines({ APP_URL: 'http://127.0.0.1:3000', APP_ENV: 'production', DEV_DASHBOARD: 'true', MAIL_DRIVER: 'outbox' }),
    );
    expect(set).toHaveLength(2);
    expect(set.join('\n')).toContain('DEV_DASHBOARD=true is ignored with APP_ENV=production');
    expect(set.join('\n')).toContain('passkeys: APP_URL (http://127.0.0.1:3000) names an IP address');
  }, 60_000);
});
