/**
 * The mail settings (docs/mail.md "Settings"). Loaded with
 * the core settings at boot, so one error lists every bad one.
 */
import { defineSettings } from '../config/define-settings.js';
import { enumSetting, integerSetting, stringSetting } from '../config/parsers.js';
import { appEnvironment } from '../config/core-settings.js';
import type { CrossSettingProblem, Env, SettingParser, SettingsValues } from '../config/setting.js';

/** The drivers of `MAIL_DRIVER`. */
export const MAIL_DRIVERS = ['smtp', 'outbox'] as const;
export type MailDriver = (typeof MAIL_DRIVERS)[number];

/** The sender of the outbox driver when `MAIL_FROM` is unset. */
export const OUTBOX_DEFAULT_FROM = 'no-reply@localhost';

/** `MAIL_DRIVER` when unset: `smtp` in production (`APP_ENV`, or `NODE_ENV` when `APP_ENV` is unset), `outbox` in development and testing. */
export function defaultMailDriver(env: Env): MailDriver {
  return appEnvironment(env) === 'production' ? 'smtp' : 'outbox';
}

/** An address, bare (`app@example.com`) or with a display name (`Example <app@example.com>`). */
function mailAddressSetting(): SettingParser<string> {
  const bare = /^[^\s@<>]+@[^\s@<>]+$/;
  const named = /^[^<>]*<[^\s@<>]+@[^\s@<>]+>$/;
  return {
    allowed: 'an email address, e.g. app@example.com or "Example <app@example.com>"',
    parse: (text) => (bare.test(text) || named.test(text) ? { ok: true, value: text } : { ok: false }),
  };
}

const specs = {
  MAIL_DRIVER: {
    description:
      'How mail leaves the app: smtp (through MAIL_HOST) or outbox (kept in the mail_outbox table and shown by "bindery mail:outbox", nothing is sent). Unset: smtp in production, outbox otherwise.',
    parser: enumSetting(MAIL_DRIVERS),
    default: defaultMailDriver,
  },
  MAIL_HOST: {
    description: 'The SMTP server. Required with MAIL_DRIVER=smtp.',
    parser: stringSetting(),
    example: 'smtp.example.com',
  },
  MAIL_PORT: {
    description: 'The SMTP port: 587 (STARTTLS when the server offers it) or 465 (TLS from the start).',
    parser: integerSetting({ min: 1, max: 65535 }),
    default: '587',
  },
  MAIL_USER: {
    description: 'The SMTP user name; unset: no login.',
    parser: stringSetting(),
    example: 'app@example.com',
  },
  MAIL_PASSWORD: {
    description: 'The SMTP password (with MAIL_USER).',
    parser: stringSetting(),
    secret: true,
  },
  MAIL_FROM: {
    description: `The sender of every mail. Required with MAIL_DRIVER=smtp; the outbox uses ${OUTBOX_DEFAULT_FROM} when unset.`,
    parser: mailAddressSetting(),
    example: 'Example <no-reply@example.com>',
  },
} as const;

/** The loaded mail settings. */
export type MailSettings = SettingsValues<typeof specs>;

/** The settings declaration of the `mail()` step. */
export const mailSettings = defineSettings(specs, { check: (values) => checkMailSettings(values) });

function checkMailSettings(values: MailSettings): CrossSettingProblem[] {
  const problems: CrossSettingProblem[] = [];
  if (values.MAIL_DRIVER !== 'smtp') return problems;
  if (values.MAIL_HOST === undefined) {
    problems.push({
      names: ['MAIL_DRIVER', 'MAIL_HOST'],
      message:
        'MAIL_DRIVER=smtp needs MAIL_HOST, the SMTP server to send through; set it, or use MAIL_DRIVER=outbox to keep mail in the database',
    });
  }
  if (values.MAIL_FROM === undefined) {
    problems.push({
      names: ['MAIL_DRIVER', 'MAIL_FROM'],
      message: 'MAIL_DRIVER=smtp needs MAIL_FROM, the sender address of every mail (e.g. "Example <no-reply@example.com>")',
    });
  }
  if (values.MAIL_PASSWORD !== undefined && values.MAIL_USER === undefined) {
    problems.push({
      names: ['MAIL_PASSWORD', 'MAIL_USER'],
      message: 'MAIL_PASSWORD is set without MAIL_USER; set the user name too, or unset the password',
    });
  }
  return problems;
}
