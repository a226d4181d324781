/**
 * Session settings are validated at boot, each bad one named (docs/spec.md 8): loaded with the core settings by the real boot code, so
 * one error lists every problem before anything starts.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createTestApp, defineApp } from '../../../runtime/app/index.js';
import { loadAppSettings } from '../../../runtime/app/app-settings.js';
import { generateAppKey } from '../../../runtime/config/app-key.js';
import { SettingsError } from '../../../runtime/config/load-settings.js';
import { session } from '../../../runtime/session/index.js';
import { sessionSettings } from '../../../runtime/session/settings.js';

const app = defineApp({
  name: 'sessionsettings',
  root: fileURLToPath(new URL('.', import.meta.url)),
  routes: [],
  handlers: {},
  migrations: [],
  setup: [session()],
});

function problems(env: Record<string, string>): string[] {
  try {
    loadAppSettings(app, { APP_ENV: 'testing', APP_KEY: generateAppKey(), ...env });
  } catch (error) {
    expect(error).toBeInstanceOf(SettingsError);
    return (error as SettingsError).problems.map((p) => p.message);
  }
  return [];
}

describe('Session settings | defaults', () => {
  it('load with the documented defaults', () => {
    const { all } = loadAppSettings(app, { APP_ENV: 'testing', APP_KEY: generateAppKey() });
    expect(all).toMatchObject({
      SESSION_DRIVER: 'cookie',
      SESSION_LIFETIME: 7_200_000,
      SESSION_MAX_LIFETIME: 604_800_000,
      SESSION_COOKIE: 'app_session',
      SESSION_SAME_SITE: 'lax',
      SESSION_DOMAIN: undefined,
      SESSION_SECURE: undefined,
    });
  });
});

describe('Session settings | documented', () => {
  it('.env.example names each session setting', async () => {
    const example = await readFile(new URL('../../../.env.example', import.meta.url), 'utf8');
    for (const name of Object.keys(sessionSettings(['cookie', 'database']).specs))
      expect(example).toMatch(new RegExp(`^(# )?${name}=`, 'm'));
  });
});

describe('Session settings | each bad one is named', () => {
  it('SESSION_LIFETIME under one minute', () => {
    expect(problems({ SESSION_LIFETIME: '59s' })).toEqual([
      expect.stringMatching(/^SESSION_LIFETIME="59s": shorter than the minimum 60000 ms/),
    ]);
    expect(problems({ SESSION_LIFETIME: '1m' })).toEqual([]);
  });

  it('SESSION_MAX_LIFETIME neither 0 nor at least the lifetime', () => {
    const [message] = problems({ SESSION_LIFETIME: '2h', SESSION_MAX_LIFETIME: '1h' });
    expect(message).toMatch(
      /^SESSION_MAX_LIFETIME="1h" with SESSION_LIFETIME="2h": SESSION_MAX_LIFETIME \(1h\) must be 0 \(no limit\) or at least SESSION_LIFETIME \(2h\)/,
    );
    expect(problems({ SESSION_LIFETIME: '2h', SESSION_MAX_LIFETIME: '0' })).toEqual([]);
    expect(problems({ SESSION_LIFETIME: '2h', SESSION_MAX_LIFETIME: '2h' })).toEqual([]);
  });

  it('SESSION_SAME_SITE=none without Secure', () => {
    expect(problems({ SESSION_SAME_SITE: 'none' })).toEqual([
      expect.stringMatching(/^SESSION_SAME_SITE="none" with APP_ENV="testing": SESSION_SAME_SITE=none needs a Secure cookie/),
    ]);
    expect(
      problems({ SESSION_SAME_SITE: 'none', SESSION_SECURE: 'false', APP_ENV: 'production', DATABASE_URL: 'postgres://db/app' }),
    ).toEqual([expect.stringMatching(/^SESSION_SAME_SITE="none" with SESSION_SECURE="false"/)]);
    expect(problems({ SESSION_SAME_SITE: 'none', APP_ENV: 'production', DATABASE_URL: 'postgres://db/app' })).toEqual([]);
    expect(problems({ SESSION_SAME_SITE: 'none', SESSION_SECURE: 'true' })).toEqual([]);
  });

  it('an unknown SESSION_DRIVER, listing the known ones (an app driver included)', () => {
    expect(problems({ SESSION_DRIVER: 'redis' })).toEqual(['SESSION_DRIVER="redis": expected one of cookie, database']);
    const withRedis = defineApp({
      ...app,
      setup: [
        session({
          drivers: {
            redis: () => {
              throw new Error('not here');
            },
          },
        }),
      ],
    });
    expect(() => loadAppSettings(withRedis, { APP_KEY: generateAppKey(), SESSION_DRIVER: 'memcached' })).toThrow(
      'expected one of cookie, database, redis',
    );
  });

  it('a bad SESSION_COOKIE, SESSION_DOMAIN or SESSION_SAME_SITE, and every problem at once', () => {
    const all = problems({
      SESSION_COOKIE: '__Host-x',
      SESSION_DOMAIN: 'not a domain',
      SESSION_SAME_SITE: 'loose',
      SESSION_LIFETIME: '10s',
      SESSION_DRIVER: 'file',
    });
    expect(all.map((m) => m.split(/[=: ]/)[0])).toEqual([
      'SESSION_DRIVER',
      'SESSION_LIFETIME',
      'SESSION_COOKIE',
      'SESSION_DOMAIN',
      'SESSION_SAME_SITE',
    ]);
  });

  it('a missing or malformed APP_KEY stops the boot naming the setting', () => {
    expect(() => loadAppSettings(app, { APP_ENV: 'testing' })).toThrow(/APP_KEY is missing/);
    expect(() => loadAppSettings(app, { APP_ENV: 'testing', APP_KEY: 'base64:c2hvcnQ=' })).toThrow(
      /APP_KEY=<secret, 15 characters>: decodes to 5 bytes, not 32/,
    );
  });

  it('the boot stops before anything starts (createTestApp rejects with the named setting)', async () => {
    await expect(
      createTestApp(app, { databaseUrl: 'postgres://nobody@127.0.0.1:1/none', env: { SESSION_LIFETIME: '5s' } }),
    ).rejects.toThrow(/SESSION_LIFETIME="5s"/);
  });
});
