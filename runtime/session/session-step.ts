/**
 * The `session()` setup step (docs/boot.md "Setup steps"; docs/sessions.md):
 * settings `SESSION_*`, the `session` migration set (the database driver's
 * table), and the `session` and `csrf` middleware for the YAML groups.
 */
import { fileURLToPath } from 'node:url';
import type { SetupStep } from '../app/setup-step.js';
import { createCsrfMiddleware } from '../csrf/csrf-middleware.js';
import { BUILT_IN_DRIVERS, createSessionManager } from './session-manager.js';
import { createSessionMiddleware } from './session-middleware.js';
import { sessionService } from './session-service.js';
import type { SessionDriver } from './session-store.js';
import { sessionSettings } from './settings.js';
import './context.js';

/** The folder of the `session` migration set. */
export const SESSION_MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

/** Options of {@link session}. */
export interface SessionStepOptions {
  /** More drivers, by the `SESSION_DRIVER` name that selects them (the built-in `cookie` and `database` stay). */
  readonly drivers?: Readonly<Record<string, SessionDriver>>;
  /** Clock in ms since the epoch (default the app's, `ctx.now`). */
  readonly now?: () => number;
}

/**
 * Sessions, CSRF, flash and the form round trip for an app.
 *
 * Adds the settings `SESSION_DRIVER`, `SESSION_LIFETIME`,
 * `SESSION_MAX_LIFETIME`, `SESSION_COOKIE`, `SESSION_DOMAIN`,
 * `SESSION_SAME_SITE`, `SESSION_SECURE` (checked at boot with the core ones,
 * each bad one named); the migration set `session` (table
 * `bindery_sessions`, used by `SESSION_DRIVER=database`); the middleware
 * `session` and `csrf`, for groups of page routes (`middleware: [session,
 * csrf]`); and `ctx.services.sessions`.
 *
 * @throws {SettingsError} at boot for bad settings (unknown driver: the message lists the known ones).
 * @throws {SessionError} `BINDERY_SESSION_DRIVER_FAILED` at boot when the driver cannot start.
 * @example
 *   export default defineApp({ …, setup: [session(), assets()] });
 */
export function session(options: SessionStepOptions = {}): SetupStep {
  const drivers = { ...BUILT_IN_DRIVERS, ...options.drivers };
  return {
    name: 'session',
    settings: sessionSettings(Object.keys(drivers)),
    migrations: [{ source: 'session', dir: SESSION_MIGRATIONS_DIR }],
    async setup(ctx) {
      const manager = await createSessionManager({
        settings: ctx.settings,
        drivers,
        database: ctx.database,
        log: ctx.log,
        now: options.now ?? ctx.now,
      });
      ctx.onClose(() => manager.close());
      ctx.addMiddleware('session', createSessionMiddleware(manager));
      ctx.addMiddleware('csrf', createCsrfMiddleware({ sessionCookie: manager.cookieName }));
      ctx.services.sessions = sessionService(manager);
    },
  };
}
