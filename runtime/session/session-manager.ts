/**
 * The session layer of one app, built once at boot from the settings
 * (docs/sessions.md): the store of the chosen driver, the cookie's name and
 * attributes, the lifetimes and the clock.
 */
import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { Encrypter } from '../crypto/encrypter.js';
import { KeyRing } from '../crypto/key-ring.js';
import type { Database } from '../db/connect.js';
import type { CookieAttributes } from './cookie-header.js';
import { cookieDriver } from './drivers/cookie-driver.js';
import { databaseDriver } from './drivers/database-driver.js';
import { SessionError } from './errors.js';
import { sessionCookieSecure } from './settings.js';
import type { SessionDriver, SessionStore } from './session-store.js';

/** The largest `name=value` of the session cookie, in bytes (docs/spec.md 8: "about 4 KB"). */
export const MAX_COOKIE_BYTES = 4096;

/** The built-in drivers by `SESSION_DRIVER` name. */
export const BUILT_IN_DRIVERS: Readonly<Record<string, SessionDriver>> = { cookie: cookieDriver, database: databaseDriver };

/** Options of {@link createSessionManager}. */
export interface SessionManagerOptions {
  /**
   * Loaded settings: the core ones (`APP_KEY`, `APP_PREVIOUS_KEYS`,
   * `APP_ENV`) and the session ones (`SESSION_*`, see settings.ts).
   */
  readonly settings: Readonly<Record<string, unknown>>;
  /** Drivers by name (default: the built-in `cookie` and `database`). */
  readonly drivers?: Readonly<Record<string, SessionDriver>>;
  /** The app database (the database driver needs it). */
  readonly database?: Database | undefined;
  /** Logger (default: pino at info). */
  readonly log?: FastifyBaseLogger;
  /** Clock, ms since the epoch (default `Date.now`); tests pass their own to check expiry. */
  readonly now?: () => number;
}

/** Everything a request's session needs from its app. */
export interface SessionManager {
  readonly store: SessionStore;
  readonly encrypter: Encrypter;
  /** `SESSION_DRIVER`. */
  readonly driver: string;
  /** The cookie's name: `__Host-<SESSION_COOKIE>` when Secure without domain, else `SESSION_COOKIE`. */
  readonly cookieName: string;
  /** Attributes of the cookie, `maxAge` = SESSION_LIFETIME in seconds. */
  readonly cookie: CookieAttributes;
  readonly lifetimeMs: number;
  /** 0: no absolute limit. */
  readonly maxLifetimeMs: number;
  /** An unchanged session is rewritten once its last write is this old (a tenth of the lifetime). */
  readonly refreshMs: number;
  readonly now: () => number;
  readonly log: FastifyBaseLogger;
  /** Stop the store (timers, connections). */
  close(): Promise<void>;
}

/**
 * Build the session layer from loaded settings.
 * @throws {SessionError} `BINDERY_SESSION_DRIVER_FAILED` when the driver cannot start, or the driver name is unknown.
 */
export async function createSessionManager(options: SessionManagerOptions): Promise<SessionManager> {
  const s = options.settings;
  const drivers = options.drivers ?? BUILT_IN_DRIVERS;
  const driver = String(s.SESSION_DRIVER ?? 'cookie');
  const make = drivers[driver];
  if (make === undefined) {
    throw new SessionError(
      'BINDERY_SESSION_DRIVER_FAILED',
      `SESSION_DRIVER=${JSON.stringify(driver)} is not a known driver; known: ${Object.keys(drivers).join(', ')}.`,
    );
  }
  const secure = sessionCookieSecure(s);
  const domain = typeof s.SESSION_DOMAIN === 'string' ? s.SESSION_DOMAIN : undefined;
  const base = typeof s.SESSION_COOKIE === 'string' ? s.SESSION_COOKIE : 'app_session';
  const cookieName = secure && domain === undefined ? `__Host-${base}` : base;
  const lifetimeMs = numberSetting(s, 'SESSION_LIFETIME', 7_200_000);
  const maxLifetimeMs = numberSetting(s, 'SESSION_MAX_LIFETIME', 604_800_000);
  const sameSite = (s.SESSION_SAME_SITE ?? 'lax') as CookieAttributes['sameSite'];
  const now = options.now ?? Date.now;
  const log = options.log ?? (pino({ level: 'info' }) as unknown as FastifyBaseLogger);
  const encrypter = new Encrypter(KeyRing.fromSettings(s));
  let store: SessionStore;
  try {
    store = await make({
      encrypter,
      cookieName,
      maxCookieBytes: MAX_COOKIE_BYTES,
      lifetimeMs,
      maxLifetimeMs,
      now,
      database: options.database,
      log,
    });
  } catch (error) {
    if (error instanceof SessionError) throw error;
    throw new SessionError(
      'BINDERY_SESSION_DRIVER_FAILED',
      `The session driver "${driver}" could not start: ${(error as Error)?.message ?? String(error)}`,
      { cause: error },
    );
  }
  return {
    store,
    encrypter,
    driver,
    cookieName,
    cookie: { path: '/', domain, maxAge: Math.floor(lifetimeMs / 1000), httpOnly: true, secure, sameSite },
    lifetimeMs,
    maxLifetimeMs,
    refreshMs: Math.floor(lifetimeMs / 10),
    now,
    log,
    close: async () => {
      await store.close?.();
    },
  };
}

function numberSetting(s: Readonly<Record<string, unknown>>, name: string, fallback: number): number {
  const v = s[name];
  return typeof v === 'number' ? v : fallback;
}
