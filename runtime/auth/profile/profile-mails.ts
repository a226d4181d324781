/**
 * The mails of an email change (docs/auth.md "Changing the email address";
 * docs/i18n.md "Mails and jobs"): the link to the new address, the notice
 * to the old one, in the account owner's locale (`auth.mail.email_change.*`,
 * `auth.mail.email_notice.*`); English without `i18n()`.
 */
import { escapeHtml } from '../../errors/html.js';
import type { I18n } from '../../i18n/translator.js';
import type { MailMessage } from '../../mail/mailer.js';
import { formatLinkTtl } from '../links/link-mails.js';

/** The translations and the recipient's stored locale (a user's `locale` column), when `i18n()` is set up. */
export interface MailLocale {
  readonly i18n: I18n;
  readonly locale: unknown;
}

/** The mail to the new address with the link that makes the change. */
export function emailChangeLinkMail(appName: string, to: string, url: string, ttlMs: number, words?: MailLocale): MailMessage {
  let intro = `Someone asked to use this address for an account of ${appName}. To make the change, open the link below:`;
  let subject = `Confirm your new email address for ${appName}`;
  let button = 'Use this email address';
  let outro = `The link works for ${formatLinkTtl(ttlMs)}. Until then the account keeps its old address. If it was not you, ignore this mail.`;
  if (words !== undefined) {
    const { i18n } = words;
    const locale = i18n.localeFor(words.locale);
    const duration = formatLinkTtl(ttlMs, i18n, locale);
    subject = i18n.t(locale, 'auth.mail.email_change.subject', { app: appName });
    intro = i18n.t(locale, 'auth.mail.email_change.intro', { app: appName });
    button = i18n.t(locale, 'auth.mail.email_change.button');
    outro = i18n.t(locale, 'auth.mail.email_change.outro', { duration });
  }
  return {
    to,
    subject,
    text: `${intro}\n\n${url}\n\n${outro}\n`,
    html: `<p>${escapeHtml(intro)}</p><p><a href="${escapeHtml(url)}">${escapeHtml(button)}</a></p><p>${escapeHtml(outro)}</p>`,
  };
}

/** The notice to the old address that a change to `next` was asked for. */
export function emailChangeNoticeMail(appName: string, to: string, next: string, words?: MailLocale): MailMessage {
  if (words === undefined)
    return {
      to,
      subject: `Your ${appName} email address is about to change`,
      text: `Someone signed in to your ${appName} account asked to change its email address to ${next}. The change happens only once the link mailed to the new address is followed; until then you sign in with this address.\n\nIf it was not you, change your password now.\n`,
      html: `<p>Someone signed in to your ${escapeHtml(appName)} account asked to change its email address to <strong>${escapeHtml(next)}</strong>. The change happens only once the link mailed to the new address is followed; until then you sign in with this address.</p><p>If it was not you, change your password now.</p>`,
    };
  const { i18n } = words;
  const locale = i18n.localeFor(words.locale);
  const body = (address: string) => i18n.t(locale, 'auth.mail.email_notice.body', { app: appName, address });
  const warning = i18n.t(locale, 'auth.mail.email_notice.warning');
  return {
    to,
    subject: i18n.t(locale, 'auth.mail.email_notice.subject', { app: appName }),
    text: `${body(next)}\n\n${warning}\n`,
    html: `<p>${escapeHtml(body('\u0000'))
      .split('\u0000')
      .join(`<strong>${escapeHtml(next)}</strong>`)}</p><p>${escapeHtml(warning)}</p>`,
  };
}
