/**
 * Startup errors of the auth core (docs/spec.md 7 rule 9) and its settings
 * (docs/auth.md): each stops the boot with a message naming the setup
 * call, the route or the setting at fault.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, defineApp } from '../../../runtime/app/index.js';
import { SetupError } from '../../../runtime/app/errors.js';
import { loadAppSettings } from '../../../runtime/app/app-settings.js';
import { auth, RequestAuth } from '../../../runtime/auth/index.js';
import { checkGuardedRoutes } from '../../../runtime/auth/route-check.js';
import { authSettings } from '../../../runtime/auth/settings.js';
import { cache } from '../../../runtime/cache/index.js';
import { cacheSettings } from '../../../runtime/cache/settings.js';
import { generateAppKey } from '../../../runtime/config/app-key.js';
import { SettingsError } from '../../../runtime/config/load-settings.js';
import { session } from '../../../runtime/session/index.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { route } from '../http/support/routes.js';
import { authHandlers, authRoutes, MemoryUsers } from './support/auth-app.js';

const users = new MemoryUsers();
const root = fileURLToPath(new URL('.', import.meta.url));
const base = { name: 'authstartup', root, routes: [], handlers: {}, migrations: [] } as const;

describe('Startup | auth needs the cache and the session set up before it', () => {
  it('without cache() the app is refused, naming the call to add', () => {
    expect(() => defineApp({ ...base, setup: [session(), auth({ users: users.provider })] })).toThrow(
      new SetupError('auth() needs cache() set up before it: add cache() before auth() in the setup list of app/main.ts.'),
    );
  });

  it('with cache() after auth(), it says to move it', () => {
    expect(() => defineApp({ ...base, setup: [session(), auth({ users: users.provider }), cache()] })).toThrow(
      'auth() needs cache() set up before it: move cache() before auth() in the setup list of app/main.ts.',
    );
  });

  it('without session() the app is refused the same way', () => {
    expect(() => defineApp({ ...base, setup: [cache(), auth({ users: users.provider })] })).toThrow(
      'auth() needs session() set up before it: add session() before auth()',
    );
  });

  it('auth set up twice is refused', () => {
    expect(() =>
      defineApp({ ...base, setup: [cache(), session(), auth({ users: users.provider }), auth({ users: users.provider })] }),
    ).toThrow('auth() is set up twice in this app; keep one.');
  });

  it('auth() without user lookups is a programming error', () => {
    expect(() => auth(undefined as never)).toThrow(/auth\(\) needs the app's user lookups/);
  });
});

describe('Startup | auth middleware missing from a guarded route', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('authstartup');
  });
  afterAll(async () => {
    await database?.drop();
  });

  function appWith(middleware: string[]) {
    const guarded = route({ name: 'guarded', path: '/guarded', middleware, group: 'member' });
    return defineApp({
      ...base,
      routes: [...authRoutes(), guarded],
      handlers: { ...authHandlers(users), guarded: () => ({ ok: true }) },
      middleware: { token: (_c, next) => next() },
      setup: [cache(), session(), auth({ users: users.provider })],
    });
  }

  it('require without auth before it stops the boot naming the route, its group and where it was declared', async () => {
    const error = await createTestApp(appWith(['session', 'csrf', 'require']), { databaseUrl: database.url }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'BINDERY_AUTH_MIDDLEWARE_MISSING' });
    expect((error as Error).message).toContain(
      'test/guarded.yaml:1:1: route "guarded" (group "member") uses the guard "require" without "auth" or "token" before it (middleware: [session, csrf, require])',
    );
  });

  it('guest without auth, and a guard before auth, are refused too', async () => {
    await expect(createTestApp(appWith(['session', 'csrf', 'guest']), { databaseUrl: database.url })).rejects.toThrow(
      /uses the guard "guest" without "auth" or "token" before it/,
    );
    await expect(createTestApp(appWith(['session', 'csrf', 'require', 'auth']), { databaseUrl: database.url })).rejects.toMatchObject({
      code: 'BINDERY_AUTH_MIDDLEWARE_MISSING',
    });
  });

  it('auth or token before the guard boots', async () => {
    for (const middleware of [
      ['session', 'csrf', 'auth', 'require'],
      ['token', 'require'],
      ['session', 'auth', 'guest'],
    ]) {
      const t = await createTestApp(appWith(middleware), { databaseUrl: database.url });
      await t.close();
    }
  });

  it('checkGuardedRoutes lists every offending route at once', () => {
    const routes = [
      route({ name: 'a', path: '/a', middleware: ['require'] }),
      route({ name: 'b', path: '/b', middleware: ['auth', 'guest'] }),
      route({ name: 'c', path: '/c', middleware: ['guest'] }),
    ];
    expect(() => checkGuardedRoutes(routes)).toThrow(/^2 guarded routes have no auth middleware[\s\S]*route "a"[\s\S]*route "c"/);
  });
});

describe('Startup | the current user asked for while it is being loaded', () => {
  it('RequestAuth refuses a lookup asking for the user (BINDERY_AUTH_USER_LOADING); concurrent callers share one load', async () => {
    const reentrant: RequestAuth<string> = new RequestAuth<string>({
      via: 'session',
      id: '1',
      load: async () => {
        await reentrant.user();
        return 'x';
      },
    });
    await expect(reentrant.user()).rejects.toMatchObject({ code: 'BINDERY_AUTH_USER_LOADING' });
    const syncThrow = new RequestAuth<string>({
      via: 'session',
      id: '1',
      load: () => {
        throw new Error('lookup failed');
      },
    });
    expect(() => syncThrow.user()).toThrow('lookup failed');
    let loads = 0;
    const fine = new RequestAuth<string>({
      via: 'session',
      id: '1',
      load: async () => {
        loads++;
        return 'x';
      },
    });
    expect(await Promise.all([fine.user(), fine.user()])).toEqual(['x', 'x']);
    expect(await fine.user()).toBe('x');
    expect(loads).toBe(1);
  });
});

describe('Settings | validated at boot, each bad one named', () => {
  const app = defineApp({ ...base, setup: [cache(), session(), auth({ users: users.provider })] });

  function problems(env: Record<string, string>): string[] {
    try {
      loadAppSettings(app, { APP_ENV: 'testing', APP_KEY: generateAppKey(), ...env });
    } catch (error) {
      expect(error).toBeInstanceOf(SettingsError);
      return (error as SettingsError).problems.map((p) => p.message);
    }
    return [];
  }

  it('load with the documented defaults', () => {
    const { all } = loadAppSettings(app, { APP_ENV: 'testing', APP_KEY: generateAppKey() });
    expect(all).toMatchObject({
      CACHE_DRIVER: 'database',
      AUTH_LOGIN_URL: '/login',
      AUTH_HOME_URL: '/dashboard',
      AUTH_THROTTLE: 5,
      AUTH_THROTTLE_IP: 50,
      AUTH_REMEMBER_LIFETIME: 720 * 3_600_000,
    });
  });

  it('AUTH_LOGIN_URL and AUTH_HOME_URL must be local paths: protocol-relative and absolute URLs are refused', () => {
    expect(problems({ AUTH_LOGIN_URL: '//evil.example' })).toEqual([
      expect.stringMatching(/^AUTH_LOGIN_URL="\/\/evil\.example": a protocol-relative URL \(another host\)/),
    ]);
    expect(problems({ AUTH_HOME_URL: 'https://evil.example/' })).toEqual([
      expect.stringMatching(/^AUTH_HOME_URL="https:\/\/evil\.example\/": an absolute URL; redirects must stay on this site/),
    ]);
    expect(problems({ AUTH_HOME_URL: '/\\evil.example' })).toHaveLength(1);
    expect(problems({ AUTH_LOGIN_URL: 'login' })).toEqual([
      expect.stringMatching(/^AUTH_LOGIN_URL="login": expected a path on this site starting with a single "\/"/),
    ]);
    expect(problems({ AUTH_LOGIN_URL: 'javascript:alert(1)' })).toHaveLength(1);
    expect(problems({ AUTH_LOGIN_URL: '/sign-in?next=1', AUTH_HOME_URL: '/' })).toEqual([]);
  });

  it('AUTH_THROTTLE and AUTH_THROTTLE_IP are at least 1; AUTH_REMEMBER_LIFETIME at least a minute', () => {
    expect(problems({ AUTH_THROTTLE: '0' })).toEqual([expect.stringMatching(/^AUTH_THROTTLE="0": below the minimum 1/)]);
    expect(problems({ AUTH_THROTTLE: 'five' })).toEqual([expect.stringMatching(/^AUTH_THROTTLE="five": not an integer/)]);
    expect(problems({ AUTH_THROTTLE_IP: '-3' })).toEqual([expect.stringMatching(/^AUTH_THROTTLE_IP="-3"/)]);
    expect(problems({ AUTH_REMEMBER_LIFETIME: '30s' })).toEqual([
      expect.stringMatching(/^AUTH_REMEMBER_LIFETIME="30s": shorter than the minimum 60000 ms/),
    ]);
    expect(problems({ AUTH_THROTTLE: '1', AUTH_THROTTLE_IP: '1', AUTH_REMEMBER_LIFETIME: '1m' })).toEqual([]);
  });

  it('every bad one is listed at once, with CACHE_DRIVER', () => {
    const all = problems({
      AUTH_LOGIN_URL: '//x',
      AUTH_HOME_URL: 'http://x',
      AUTH_THROTTLE: '0',
      AUTH_THROTTLE_IP: '0',
      AUTH_REMEMBER_LIFETIME: 'soon',
      CACHE_DRIVER: 'redis',
    });
    expect(all.map((m) => m.split('=')[0])).toEqual([
      'CACHE_DRIVER',
      'AUTH_LOGIN_URL',
      'AUTH_HOME_URL',
      'AUTH_THROTTLE',
      'AUTH_THROTTLE_IP',
      'AUTH_REMEMBER_LIFETIME',
    ]);
  });

  it('.env.example documents each auth and cache setting', async () => {
    const example = await readFile(new URL('../../../.env.example', import.meta.url), 'utf8');
    for (const name of [...Object.keys(authSettings.specs), ...Object.keys(cacheSettings.specs)])
      expect(example).toMatch(new RegExp(`^(# )?${name}=`, 'm'));
  });

  it('a bad setting stops the boot before anything starts', async () => {
    await expect(
      createTestApp(app, { databaseUrl: 'postgres://nobody@127.0.0.1:1/none', env: { AUTH_HOME_URL: '//evil.example' } }),
    ).rejects.toThrow(/AUTH_HOME_URL="\/\/evil\.example"/);
  });
});
