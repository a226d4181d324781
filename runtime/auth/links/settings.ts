/**
 * Settings of the emailed account links (docs/spec.md 5.6, 8 "AUTH_RESET_TTL";
 * docs/mail.md "Verification and reset links"). Loaded with the core
 * settings at boot, so one error lists every bad one.
 */
import { defineSettings } from '../../config/define-settings.js';
import { durationSetting } from '../../config/parsers.js';
import type { SettingsValues } from '../../config/setting.js';

/** The shortest lifetime a link may have (ms): one minute. */
export const MIN_LINK_TTL_MS = 60_000;

/** The settings declaration of the `links()` step. */
export const linkSettings = defineSettings({
  AUTH_VERIFY_TTL: {
    description: 'How long an email verification link works after it was sent. At least one minute.',
    parser: durationSetting({ min: MIN_LINK_TTL_MS }),
    default: '24h',
  },
  AUTH_RESET_TTL: {
    description:
      'How long a password reset link works after it was sent (and only until the password or the email address changes). At least one minute.',
    parser: durationSetting({ min: MIN_LINK_TTL_MS }),
    default: '1h',
  },
});

/** The loaded link settings (milliseconds). */
export type LinkSettings = SettingsValues<typeof linkSettings.specs>;
