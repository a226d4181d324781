/**
 * The mails of an email change (docs/auth.md "Changing the email address"):
 * the link to the new address, the notice to the old one.
 */
import { escapeHtml } from '../../errors/html.js';
import type { MailMessage } from '../../mail/mailer.js';
import { formatHours } from '../links/account-links.js';

/** The mail to the new address with the link that makes the change. */
export function emailChangeLinkMail(appName: string, to: string, url: string, ttlMs: number): MailMessage {
  const hours = formatHours(ttlMs);
  return {
    to,
    subject: `Confirm your new email address for ${appName}`,
    text: `Someone asked to use this address for an account of ${appName}. To make the change, open the link below:\n\n${url}\n\nThe link works for ${hours}. Until then the account keeps its old address. If it was not you, ignore this mail.\n`,
    html: `<p>Someone asked to use this address for an account of ${escapeHtml(appName)}. To make the change, open the link below:</p><p><a href="${escapeHtml(url)}">Use this email address</a></p><p>The link works for ${hours}. Until then the account keeps its old address. If it was not you, ignore this mail.</p>`,
  };
}

/** The notice to the old address that a change to `next` was asked for. */
export function emailChangeNoticeMail(appName: string, to: string, next: string): MailMessage {
  return {
    to,
    subject: `Your ${appName} email address is about to change`,
    text: `Someone signed in to your ${appName} account asked to change its email address to ${next}. The change happens only once the link mailed to the new address is followed; until then you sign in with this address.\n\nIf it was not you, change your password now.\n`,
    html: `<p>Someone signed in to your ${escapeHtml(appName)} account asked to change its email address to <strong>${escapeHtml(next)}</strong>. The change happens only once the link mailed to the new address is followed; until then you sign in with this address.</p><p>If it was not you, change your password now.</p>`,
  };
}
