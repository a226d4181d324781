/**
 * The `devices()` setup step (docs/boot.md "Setup steps"; docs/auth.md
 * "Sessions and devices").
 */
import type { SetupStep } from '../../app/setup-step.js';
import type { Cache } from '../../cache/cache.js';
import type { SessionService } from '../../session/session-service.js';
import type { AuthService } from '../auth-service.js';
import { AccountDevices } from './account-devices.js';

declare module '../../http/context.js' {
  interface Services {
    /** The user's sessions and devices; present once `devices()` is set up. */
    readonly devices?: AccountDevices;
  }
}

/** Options of {@link devices}. */
export interface DevicesStepOptions {
  /** Clock in ms since the epoch (default the app's, `ctx.now`). */
  readonly now?: () => number;
}

/**
 * The list of a user's signed-in browsers, ending one, and signing out every
 * other browser (`ctx.services.devices`). The full list needs
 * `SESSION_DRIVER=database` (its table keeps each session's client address
 * and user agent); with cookie sessions only the current session is known,
 * and "sign out other browsers" still works through the password
 * fingerprint. Needs `auth()` before it.
 *
 * @example setup: [cache(), session(), auth({ users }), devices()]
 */
export function devices(options: DevicesStepOptions = {}): SetupStep {
  return {
    name: 'devices',
    call: 'devices()',
    requires: [{ name: 'auth', call: 'auth()' }],
    setup(ctx) {
      ctx.services.devices = new AccountDevices({
        auth: ctx.services.auth as AuthService,
        sessions: ctx.services.sessions as SessionService,
        cache: ctx.services.cache as Cache,
        throttle: (ctx.settings.AUTH_THROTTLE as number | undefined) ?? 5,
        services: ctx.services,
        now: options.now ?? ctx.now,
      });
    },
  };
}
