/**
 * Mail (docs/mail.md): the `mail()` setup step, the
 * `Mailer` (`ctx.services.mailer`) and the outbox of `MAIL_DRIVER=outbox`.
 */
export { mail } from './mail-step.js';
export { AppMailer } from './app-mailer.js';
export type { Mailer, MailMessage, MailResult } from './mailer.js';
export { linksOf, readOutbox, type OutboxMessage, type ReadOutboxOptions } from './outbox.js';
export type { MailDriver } from './settings.js';
export { maskEmail } from './mask-email.js';
