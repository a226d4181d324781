/**
 * The `passwordConfirmation()` setup step (docs/boot.md "Setup steps";
 * docs/auth.md "Password confirmation").
 */
import type { SetupStep } from '../../app/setup-step.js';
import type { Cache } from '../../cache/cache.js';
import { defineSettings } from '../../config/define-settings.js';
import { durationSetting } from '../../config/parsers.js';
import { CONFIRM_PASSWORD_MIDDLEWARE } from '../../http/route-password-confirmation.js';
import type { RouteTable } from '../../routing/route-table.js';
import { routeOrigin } from '../../routing/route-origin.js';
import type { AuthService } from '../auth-service.js';
import { AuthSetupError } from '../errors.js';
import { localPathSetting } from '../settings.js';
import { confirmPasswordMiddleware } from './confirm-middleware.js';
import { PasswordConfirmation } from './password-confirmation.js';

declare module '../../http/context.js' {
  interface Services {
    /** Password confirmation ("sudo mode"); present once `passwordConfirmation()` is set up. */
    readonly passwordConfirmation?: PasswordConfirmation;
  }
}

/** The settings declaration of the `passwordConfirmation()` step. */
export const confirmSettings = defineSettings({
  AUTH_PASSWORD_TIMEOUT: {
    description:
      'How long a password confirmation lasts for routes declared with confirmPassword: true (a route may give its own window, e.g. confirmPassword: 15m). At least one second.',
    parser: durationSetting({ min: 1000 }),
    default: '15m',
  },
  AUTH_CONFIRM_URL: {
    description: 'The confirm-password form pages are sent to when a route needs a fresh confirmation. A path on this site.',
    parser: localPathSetting(),
    default: '/user/confirm-password',
  },
});

/** Options of {@link passwordConfirmation}. */
export interface PasswordConfirmationStepOptions {
  /** Clock in ms since the epoch (default the app's, `ctx.now`). */
  readonly now?: () => number;
}

/**
 * Password confirmation ("sudo mode") for routes declared with
 * `confirmPassword` in the YAML.
 *
 * Adds the settings `AUTH_PASSWORD_TIMEOUT` (15m) and `AUTH_CONFIRM_URL`
 * (`/user/confirm-password`), `ctx.services.passwordConfirmation`, the
 * middleware the HTTP server puts last in the chain of each such route, and
 * a startup check: such a route must run `session`, `auth` and `require`.
 * Needs `auth()` before it.
 *
 * @throws {AuthSetupError} `BINDERY_AUTH_MIDDLEWARE_MISSING` at boot for a route with confirmPassword outside a signed-in group.
 * @example setup: [cache(), session(), auth({ users }), passwordConfirmation()]
 */
export function passwordConfirmation(options: PasswordConfirmationStepOptions = {}): SetupStep {
  return {
    name: 'password-confirmation',
    call: 'passwordConfirmation()',
    requires: [{ name: 'auth', call: 'auth()' }],
    settings: confirmSettings,
    setup(ctx) {
      const s = ctx.settingsOf(confirmSettings);
      const service = new PasswordConfirmation({
        auth: ctx.services.auth as AuthService,
        cache: ctx.services.cache as Cache,
        timeoutMs: s.AUTH_PASSWORD_TIMEOUT,
        confirmUrl: s.AUTH_CONFIRM_URL,
        throttle: (ctx.settings.AUTH_THROTTLE as number | undefined) ?? 5,
        services: ctx.services,
        now: options.now ?? ctx.now,
      });
      ctx.services.passwordConfirmation = service;
      ctx.addMiddleware(CONFIRM_PASSWORD_MIDDLEWARE, confirmPasswordMiddleware(service));
      ctx.addRouteCheck(checkConfirmedRoutes);
    },
  };
}

/** Routes with `confirmPassword` must have a signed-in user to ask: `session`, `auth` and `require` in their middleware. */
function checkConfirmedRoutes(routes: RouteTable): void {
  const bad = routes.filter(
    (r) => r.confirmPassword !== undefined && !['session', 'auth', 'require'].every((m) => r.middleware.includes(m)),
  );
  if (bad.length === 0) return;
  throw new AuthSetupError(
    'BINDERY_AUTH_MIDDLEWARE_MISSING',
    bad
      .map(
        (r) =>
          `${routeOrigin(r)}: route "${r.name}" has confirmPassword but not session, auth and require in its middleware ([${r.middleware.join(', ')}]); put it in a group of signed-in users (e.g. member)`,
      )
      .join('\n'),
  );
}
