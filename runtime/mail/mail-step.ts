/**
 * The `mail()` setup step (docs/boot.md "Setup steps"; docs/mail.md):
 * settings `MAIL_*`, the migration set `mail` (table `mail_outbox`), the
 * command `mail:outbox` and `ctx.services.mailer`.
 */
import { fileURLToPath } from 'node:url';
import type { SetupStep } from '../app/setup-step.js';
import { AppMailer, type MailerServices } from './app-mailer.js';
import { MailOutboxCommand } from './commands/mail-outbox-command.js';
import { mailSettings } from './settings.js';
import './mailer.js';

/** The folder of the `mail` migration set. */
export const MAIL_MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

/**
 * Mail through nodemailer for an app.
 *
 * `MAIL_DRIVER=smtp` (the default in production) sends through `MAIL_HOST`,
 * `MAIL_PORT`, `MAIL_USER`, `MAIL_PASSWORD` from `MAIL_FROM`; `outbox` (the
 * default in development and testing) keeps every message in `mail_outbox`,
 * printed by `bindery mail:outbox`. Recipients on the suppression list (the
 * mail-provider plugin's) are skipped before every send.
 *
 * @throws {SettingsError} at boot for bad settings (`MAIL_DRIVER=smtp` without `MAIL_HOST` or `MAIL_FROM`).
 * @example setup: [cache(), session(), auth(), mail(), links()]
 */
export function mail(): SetupStep {
  return {
    name: 'mail',
    settings: mailSettings,
    migrations: [{ source: 'mail', dir: MAIL_MIGRATIONS_DIR }],
    commands: [MailOutboxCommand],
    setup(ctx) {
      const mailer = new AppMailer({
        settings: ctx.settingsOf(mailSettings),
        db: ctx.database.db,
        // Read at send time: the mail-provider plugin adds its suppression check later in setup.
        services: ctx.services as MailerServices,
        log: ctx.log,
      });
      ctx.onClose(() => mailer.close());
      ctx.services.mailer = mailer;
    },
  };
}
