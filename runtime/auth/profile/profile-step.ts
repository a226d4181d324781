/**
 * The `profile()` setup step (docs/boot.md "Setup steps"; docs/auth.md
 * "Profile and credentials").
 */
import type { I18n } from '../../i18n/translator.js';
import type { SetupStep } from '../../app/setup-step.js';
import type { Cache } from '../../cache/cache.js';
import { defineSettings } from '../../config/define-settings.js';
import { booleanSetting, durationSetting } from '../../config/parsers.js';
import { Encrypter } from '../../crypto/encrypter.js';
import { KeyRing } from '../../crypto/key-ring.js';
import type { Mailer } from '../../mail/mailer.js';
import type { AuthService } from '../auth-service.js';
import type { RevokeAllTokens } from '../links/account-links.js';
import { resolveUsersTable, type LinkUsersTable } from '../links/users-table.js';
import { LinkFingerprints } from '../account/link-fingerprint.js';
import { AccountProfile } from './account-profile.js';

declare module '../../http/context.js' {
  interface Services {
    /** Profile and credential changes; present once `profile()` is set up. */
    readonly profile?: AccountProfile;
  }
}

/** The settings declaration of the `profile()` step. */
export const profileSettings = defineSettings({
  AUTH_EMAIL_CHANGE_TTL: {
    description: 'How long the link mailed to a new email address works. At least one minute.',
    parser: durationSetting({ min: 60_000 }),
    default: '24h',
  },
  AUTH_HIDE_ACCOUNTS: {
    description:
      'Do not tell whether an address has an account: an email change to a taken address is answered like any other, and refused (422 on email) only when the link mailed to it is followed.',
    parser: booleanSetting(),
    default: 'false',
  },
  AUTH_PASSWORD_CHANGE_SIGN_OUT: {
    description:
      "A password change ends the user's other sessions, remembered browsers and API tokens, as a reset does. false keeps API tokens and remembered browsers (other sessions still end on their next request: their password fingerprint no longer matches).",
    parser: booleanSetting(),
    default: 'true',
  },
});

/** Options of {@link profile}. */
export interface ProfileStepOptions {
  /** Table and column names of the users (defaults: docs/spec.md 2.1 — `users`, `id`, `name`, `email`, `email_verified_at`, `password`, `updated_at`). */
  readonly users?: LinkUsersTable;
  /** Path of the page that follows an email change link (default `/user/confirm-email`). */
  readonly confirmEmailPath?: string;
  /** Clock in ms since the epoch (default the app's, `ctx.now`). */
  readonly now?: () => number;
}

/**
 * Profile and credential changes (`ctx.services.profile`): the name, the
 * email address (verified by a link to the new address before it takes
 * effect; the old address notified), the password (the current one
 * required). Adds the settings `AUTH_EMAIL_CHANGE_TTL` (24h),
 * `AUTH_HIDE_ACCOUNTS` (false) and `AUTH_PASSWORD_CHANGE_SIGN_OUT` (true).
 * Needs `cache()`, `auth()` and `mail()` before it; with `tokens()` a
 * password change revokes the user's API tokens.
 *
 * @throws {SettingsError} at boot for a bad setting (named).
 * @example setup: [cache(), session(), auth({ users }), mail(), tokens(), profile()]
 */
export function profile(options: ProfileStepOptions = {}): SetupStep {
  const users = resolveUsersTable(options.users);
  return {
    name: 'profile',
    call: 'profile()',
    requires: [
      { name: 'cache', call: 'cache()' },
      { name: 'auth', call: 'auth()' },
      { name: 'mail', call: 'mail()' },
    ],
    settings: profileSettings,
    setup(ctx) {
      const s = ctx.settingsOf(profileSettings);
      const services = ctx.services as { apiTokens?: { revokeAllIn: RevokeAllTokens } };
      const ring = KeyRing.fromSettings(ctx.settings);
      ctx.services.profile = new AccountProfile({
        auth: ctx.services.auth as AuthService,
        db: ctx.database.db,
        users,
        mailer: ctx.services.mailer as Mailer,
        encrypter: new Encrypter(ring),
        fingerprints: new LinkFingerprints(ring),
        cache: ctx.services.cache as Cache,
        appUrl: ctx.settings.APP_URL as URL,
        confirmEmailPath: options.confirmEmailPath ?? '/user/confirm-email',
        appName: ctx.app.name,
        // Read at send time: i18n() may come later in the setup list.
        i18n: () => (ctx.services as { i18n?: I18n }).i18n,
        emailChangeTtlMs: s.AUTH_EMAIL_CHANGE_TTL,
        hideAccounts: s.AUTH_HIDE_ACCOUNTS,
        passwordChangeSignsOut: s.AUTH_PASSWORD_CHANGE_SIGN_OUT,
        throttle: (ctx.settings.AUTH_THROTTLE as number | undefined) ?? 5,
        revokeAllTokens: () => services.apiTokens?.revokeAllIn,
        services: ctx.services,
        now: options.now ?? ctx.now,
      });
    },
  };
}
