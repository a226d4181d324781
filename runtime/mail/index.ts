/**
 * Mail (docs/mail.md): the `mail()` setup step, the
 * `Mailer` (`ctx.services.mailer`) and the outbox of `MAIL_DRIVER=outbox`.
 */
export { mail, MAIL_MIGRATIONS_DIR } from './mail-step.js';
export { AppMailer, type AppMailerOptions, type MailerServices } from './app-mailer.js';
export type { Mailer, MailMessage, MailResult } from './mailer.js';
export { linksOf, readOutbox, type OutboxMessage, type ReadOutboxOptions } from './outbox.js';
export { defaultMailDriver, mailSettings, MAIL_DRIVERS, OUTBOX_DEFAULT_FROM, type MailDriver, type MailSettings } from './settings.js';
export { MailOutboxCommand } from './commands/mail-outbox-command.js';
