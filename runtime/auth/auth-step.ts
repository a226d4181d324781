import type { SetupStep } from '../app/setup-step.js';
import type { Cache } from '../cache/cache.js';
import { KeyRing } from '../crypto/key-ring.js';
import type { SessionService } from '../session/session-service.js';
import { sessionCookieSecure } from '../session/settings.js';
import { AddressLanes } from './address-lanes.js';
import { LoginThrottle } from './login-throttle.js';
import { PasswordFingerprints } from './password-fingerprint.js';
import { PasswordHasher, type Argon2Params } from './passwords/password-hasher.js';
import { RememberCookie } from './remember-cookie.js';
import { guestGuard, requireGuard, sessionGuard } from './guards.js';
import { checkGuardedRoutes } from './route-check.js';
import { SessionAuth } from './session-auth.js';
import { authSettings } from './settings.js';
import type { UserProvider } from './user-provider.js';
import type { AnyKysely } from '../db/any-kysely.js';
import { BinderyError } from '../errors/bindery-error.js';

/** What a user-provider factory receives at boot. */
export interface UserProviderContext {
  /** The app's Kysely instance. */
  readonly db: AnyKysely;
  /** The app's services so far. */
  readonly services: Readonly<Record<string, unknown>>;
}

/** Options of {@link auth}. */
export interface AuthStepOptions<U> {
  /** The app's user lookups, or a function making them at boot from the database (docs/spec.md 2.1). */
  readonly users: UserProvider<U> | ((ctx: UserProviderContext) => UserProvider<U>);
  /** argon2id parameters of new hashes (default 19 MiB, 2 passes, 1 lane: docs/spec.md 5.1 rule 9). Tests may lower them. */
  readonly argon2?: Argon2Params;
  /** Clock in milliseconds since the epoch (default the app's, `ctx.now`): remember-me expiry and throttle waits. */
  readonly now?: () => number;
}

/**
 * Authentication for an app with sessions (docs/spec.md 5.1, 5.2).
 *
 * Needs `cache()` (login throttling) and `session()` before it — otherwise
 * `defineApp` stops naming the missing call; listed twice, it stops too.
 * Adds:
 *
 * - the settings `AUTH_LOGIN_URL` (`/login`), `AUTH_HOME_URL` (`/dashboard`),
 *   both local paths; `AUTH_THROTTLE` (5, at least 1); `AUTH_THROTTLE_IP`
 *   (50); `AUTH_REMEMBER_LIFETIME` (720h);
 * - the middleware `auth` (session guard), `require` and `guest` for the YAML
 *   groups (`[session, csrf, auth, require]`);
 * - `ctx.services.auth` ({@link AuthService}: attempt, login, logout, passwords);
 * - a startup check: a route guarded by `require`/`guest` without `auth` or
 *   `token` before the guard stops the boot (`BINDERY_AUTH_MIDDLEWARE_MISSING`).
 *
 * @throws {SetupError} from `defineApp` when `cache()` or `session()` is missing or later, or auth() is listed twice.
 * @throws {SettingsError} at boot for a bad `AUTH_*` setting (each named).
 * @throws {AuthSetupError} at boot for a guarded route without auth middleware.
 * @example
 *   setup: [cache(), session(), auth({ users: ({ db }) => databaseUsers(db) })]
 */
export function auth<U>(options: AuthStepOptions<U>): SetupStep {
  if (options === undefined || options.users === undefined || options.users === null) {
    throw new BinderyError(
      'BINDERY_SETUP_INVALID',
      'auth() needs the app\'s user lookups: auth({ users }) (docs/auth.md "User provider").',
    );
  }
  return {
    name: 'auth',
    call: 'auth()',
    requires: [
      { name: 'cache', call: 'cache()' },
      { name: 'session', call: 'session()' },
    ],
    settings: authSettings,
    async setup(ctx) {
      const s = ctx.settingsOf(authSettings);
      const now = options.now ?? ctx.now;
      const sessions = ctx.services.sessions as SessionService;
      const cache = ctx.services.cache as Cache;
      const users = typeof options.users === 'function' ? options.users({ db: ctx.database.db, services: ctx.services }) : options.users;
      const hasher = new PasswordHasher(options.argon2 === undefined ? {} : { params: options.argon2 });
      // The dummy hash (checked for unknown accounts) is made in the background: boot does not wait
      // for it, a login that comes first waits for the same promise.
      void hasher.dummyHash().catch(() => {});
      const service = new SessionAuth<U>({
        users,
        hasher,
        fingerprints: new PasswordFingerprints(KeyRing.fromSettings(ctx.settings)),
        remember: new RememberCookie({
          encrypter: sessions.encrypter,
          secure: sessionCookieSecure(ctx.settings),
          lifetimeMs: s.AUTH_REMEMBER_LIFETIME,
          now,
        }),
        throttle: new LoginThrottle(cache, { perLogin: s.AUTH_THROTTLE, perIp: s.AUTH_THROTTLE_IP }, now),
        // One password check at a time per address; at most AUTH_THROTTLE_IP more wait (docs/auth.md "Throttling").
        lanes: new AddressLanes(1, s.AUTH_THROTTLE_IP),
        sessions,
        services: ctx.services,
        loginUrl: s.AUTH_LOGIN_URL,
        homeUrl: s.AUTH_HOME_URL,
      });
      ctx.addMiddleware('auth', sessionGuard(service as SessionAuth<unknown>));
      ctx.addMiddleware('require', requireGuard(s.AUTH_LOGIN_URL));
      ctx.addMiddleware('guest', guestGuard(s.AUTH_HOME_URL));
      ctx.addRouteCheck(checkGuardedRoutes);
      ctx.services.auth = service;
    },
  };
}
