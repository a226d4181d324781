/**
 * The `twoFactor()` setup step (docs/boot.md "Setup steps"; docs/auth.md
 * "Two-factor authentication").
 */
import { fileURLToPath } from 'node:url';
import type { SetupContext, SetupStep } from '../../app/setup-step.js';
import type { Cache } from '../../cache/cache.js';
import { defineSettings } from '../../config/define-settings.js';
import { integerSetting } from '../../config/parsers.js';
import { Encrypter } from '../../crypto/encrypter.js';
import { KeyRing } from '../../crypto/key-ring.js';
import type { I18n } from '../../i18n/translator.js';
import { jobsRuntimeOf } from '../../jobs/jobs-runtime.js';
import type { Mailer } from '../../mail/mailer.js';
import type { AuthService } from '../auth-service.js';
import { CodeLockout } from './code-lockout.js';
import { lockoutNoticeJob } from './lockout-notice.js';
import { TwoFactor } from './two-factor.js';
import { TwoFactorStore } from './two-factor-store.js';

declare module '../../http/context.js' {
  interface Services {
    /** Two-factor authentication (TOTP); present once `twoFactor()` is set up. */
    readonly twoFactor?: TwoFactor;
  }
}

/** The folder of the `two-factor` migration set. */
export const TWO_FACTOR_MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

/** The settings declaration of the `twoFactor()` step. */
export const twoFactorSettings = defineSettings({
  AUTH_TWO_FACTOR_THROTTLE: {
    description:
      'Recovery codes tried per pending login in a minute, and codes tried per account in a minute when confirming two-factor; more are refused without a check. Sign-in codes have their own lockout. At least 1.',
    parser: integerSetting({ min: 1 }),
    default: '5',
  },
});

/** Options of {@link twoFactor}. */
export interface TwoFactorStepOptions {
  /** The issuer authenticator apps show next to the account (default: the app's name). */
  readonly issuer?: string;
  /** Clock in ms since the epoch (default the app's, `ctx.now`). */
  readonly now?: () => number;
}

/**
 * TOTP two-factor authentication (`ctx.services.twoFactor`): secrets
 * encrypted with `APP_KEY` and ten hashed recovery codes in the migration
 * set `two-factor` (tables `bindery_two_factor`, `bindery_recovery_codes`),
 * and the login's second step: once an account confirmed two-factor, a
 * right password leaves the session with a pending login instead of signing
 * in (`AuthService.attempt`), finished by a code. Wrong codes lock the
 * account's codes out for a growing time and its owner is mailed once per
 * lockout — as the job `two_factor:send_lockout_notice` when `jobs()` is
 * set up before this step, else in the background; with `mail()` only.
 * Adds the setting `AUTH_TWO_FACTOR_THROTTLE` (5). Needs `cache()` and
 * `auth()` before it.
 *
 * @throws {SettingsError} at boot for a bad setting (named).
 * @example setup: [cache(), session(), auth({ users }), passwordConfirmation(), twoFactor()]
 */
export function twoFactor(options: TwoFactorStepOptions = {}): SetupStep {
  return {
    name: 'two-factor',
    call: 'twoFactor()',
    requires: [
      { name: 'cache', call: 'cache()' },
      { name: 'auth', call: 'auth()' },
    ],
    settings: twoFactorSettings,
    migrations: [{ source: 'two-factor', dir: TWO_FACTOR_MIGRATIONS_DIR }],
    setup(ctx) {
      const s = ctx.settingsOf(twoFactorSettings);
      const encrypter = new Encrypter(KeyRing.fromSettings(ctx.settings));
      const auth = ctx.services.auth as AuthService;
      const now = options.now ?? ctx.now;
      const notifyLockout = lockoutNotifier(ctx, () => service);
      const service: TwoFactor = new TwoFactor({
        auth,
        store: new TwoFactorStore(ctx.database.db, encrypter),
        lockout: new CodeLockout(ctx.database.db, now),
        cache: ctx.services.cache as Cache,
        encrypter,
        issuer: options.issuer ?? ctx.app.name,
        throttle: s.AUTH_TWO_FACTOR_THROTTLE,
        // Mirror a password change (profile()'s setting; without profile(), a reset's: revoke).
        revokeApiTokens: (ctx.settings.AUTH_PASSWORD_CHANGE_SIGN_OUT as boolean | undefined) ?? true,
        appName: ctx.app.name,
        mailer: () => (ctx.services as { mailer?: Mailer }).mailer,
        i18n: () => (ctx.services as { i18n?: I18n }).i18n,
        notifyLockout,
        services: ctx.services,
        now,
      });
      auth.useSecondFactor(service);
      ctx.services.twoFactor = service;
    },
  };
}

/**
 * How the lockout notice goes out: a job when `jobs()` is set up before
 * this step (retried like the reset mail), else sent after the request's
 * answer, a failure logged.
 */
function lockoutNotifier(ctx: SetupContext, service: () => TwoFactor): (userId: string) => Promise<unknown> {
  const jobsRuntime = jobsRuntimeOf(ctx.services);
  if (jobsRuntime !== undefined) {
    const job = lockoutNoticeJob((userId) => service().sendLockoutNotice(userId));
    jobsRuntime.registerJob(job, 'twoFactor()');
    return (userId) => jobsRuntime.queue.add(job, { user: userId });
  }
  return async (userId) => {
    setImmediate(() => {
      service()
        .sendLockoutNotice(userId)
        .catch((error: unknown) => {
          ctx.log.error(
            { err: error, code: (error as { code?: unknown })?.code },
            `the two-factor lockout notice could not be sent: ${(error as Error)?.message ?? String(error)}`,
          );
        });
    });
  };
}
