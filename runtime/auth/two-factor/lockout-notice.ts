/**
 * The mail that tells an account's owner its two-factor codes were locked
 * out (docs/auth.md "Two-factor lockout"): whoever typed the wrong codes
 * knew the password. Sent once per lockout, as a job when `jobs()` is set
 * up (like the password reset mail), else in the background of the request.
 * Worded in the recipient's locale (`auth.mail.lockout.*`; docs/i18n.md
 * "Mails and jobs"); English without `i18n()`.
 */
import { escapeHtml } from '../../errors/html.js';
import type { I18n } from '../../i18n/translator.js';
import { defineJob, type JobDefinition } from '../../jobs/define-job.js';
import type { MailMessage } from '../../mail/mailer.js';
import { LOCKOUT_AFTER } from './code-lockout.js';

/** The job's name. */
export const LOCKOUT_NOTICE_JOB = 'two_factor:send_lockout_notice';

/** What the job carries: the account's authentication ID (never its address or a code). */
export interface LockoutNoticePayload {
  readonly user: string;
}

/**
 * The notice to the account's address `to`.
 * @param words the app's translations and the recipient's stored locale (a user's `locale` column, or null); absent: English.
 * @example lockoutNoticeMail('bindery', 'ada@example.test', { i18n, locale: 'de' })
 */
export function lockoutNoticeMail(appName: string, to: string, words?: { readonly i18n: I18n; readonly locale: unknown }): MailMessage {
  let subject: string;
  let what: string;
  let so: string;
  if (words === undefined) {
    subject = `Wrong two-factor codes for your ${appName} account`;
    what = `${LOCKOUT_AFTER} wrong two-factor codes in a row were typed to sign in to your ${appName} account, after its right password.`;
    so =
      'Sign-in codes are refused for a while now, longer after each further wrong code; your recovery codes still work. If it was not you, someone knows your password: change your password now — that also ends their attempts.';
  } else {
    const locale = words.i18n.localeFor(words.locale);
    subject = words.i18n.t(locale, 'auth.mail.lockout.subject', { app: appName });
    what = words.i18n.t(locale, 'auth.mail.lockout.what', { app: appName, n: String(LOCKOUT_AFTER), count: LOCKOUT_AFTER });
    so = words.i18n.t(locale, 'auth.mail.lockout.so');
  }
  return {
    to,
    subject,
    text: `${what}\n\n${so}\n`,
    html: `<p>${escapeHtml(what)}</p><p>${escapeHtml(so)}</p>`,
  };
}

/**
 * The job that mails the notice to the account `user`, if it still exists.
 * A mail failure fails the attempt (retried with backoff, 5 attempts in all).
 * @param send looks the account up and mails it (`TwoFactor.sendLockoutNotice`, read when the job runs).
 */
export function lockoutNoticeJob(send: (userId: string) => Promise<unknown>): JobDefinition<LockoutNoticePayload> {
  return defineJob<LockoutNoticePayload>({
    name: LOCKOUT_NOTICE_JOB,
    description: 'Tell the owner of an account that its two-factor sign-in codes were locked out after wrong codes.',
    maxAttempts: 5,
    payload(raw) {
      const user = (raw as Partial<LockoutNoticePayload> | null)?.user;
      if (typeof user !== 'string' || user === '' || user.length > 100)
        throw new TypeError('user must be a non-empty string of at most 100 characters');
      return { user };
    },
    async handle({ user }) {
      await send(user);
    },
  });
}
