/**
 * The auth settings (docs/spec.md 5.1 rules 3–5 and 8, 5.2, 8 "AUTH_THROTTLE",
 * "AUTH_THROTTLE_IP"; docs/auth.md "Settings"). Loaded with the core settings
 * at boot, so one error lists every bad one.
 */
import { defineSettings } from '../config/define-settings.js';
import { durationSetting, integerSetting } from '../config/parsers.js';
import type { SettingParser, SettingsValues } from '../config/setting.js';
import { isLocalPath } from '../results/local-path.js';

/** Re-exported: the one check of redirect targets (runtime/results/local-path.ts). */
export { isLocalPath };

/** A local path (see {@link isLocalPath}). */
export function localPathSetting(): SettingParser<string> {
  return {
    allowed: 'a path on this site starting with a single "/", e.g. /login (no scheme, no host)',
    parse(text) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(text)) return { ok: false, message: 'an absolute URL; redirects must stay on this site' };
      if (text.startsWith('//') || text.startsWith('/\\'))
        return { ok: false, message: 'a protocol-relative URL (another host); redirects must stay on this site' };
      return isLocalPath(text) ? { ok: true, value: text } : { ok: false };
    },
  };
}

/** The shortest remember-me lifetime (ms): one minute. */
export const MIN_REMEMBER_LIFETIME_MS = 60_000;

/** The settings declaration of the `auth()` step. */
export const authSettings = defineSettings({
  AUTH_LOGIN_URL: {
    description: 'Where the require guard sends a guest asking for a page (the page is remembered for after login). A path on this site.',
    parser: localPathSetting(),
    default: '/login',
  },
  AUTH_HOME_URL: {
    description:
      'Where the guest guard sends a signed-in user, and where a login goes when no page was asked for before. A path on this site.',
    parser: localPathSetting(),
    default: '/dashboard',
  },
  AUTH_THROTTLE: {
    description:
      'Login attempts allowed in a minute for one account (or one unknown login) from one IP address; more fail without checking the password.',
    parser: integerSetting({ min: 1 }),
    default: '5',
  },
  AUTH_THROTTLE_IP: {
    description:
      'Failed logins allowed in a minute from one IP address, whatever the login; more fail without checking the password. Successful logins do not count.',
    parser: integerSetting({ min: 1 }),
    default: '50',
  },
  AUTH_REMEMBER_LIFETIME: {
    description: 'How long the remember-me cookie signs the user back in (its Max-Age). At least one minute; 720h is 30 days.',
    parser: durationSetting({ min: MIN_REMEMBER_LIFETIME_MS }),
    default: '720h',
  },
});

/** The loaded auth settings (durations in milliseconds). */
export type AuthSettings = SettingsValues<typeof authSettings.specs>;
