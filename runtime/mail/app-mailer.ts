/**
 * The app's {@link Mailer} (`ctx.services.mailer`; docs/spec.md
 * 6.2 "consult the suppression list before sending mail"; docs/mail.md).
 *
 * Messages are built and sent by nodemailer. With `MAIL_DRIVER=smtp` they go
 * to the SMTP server; with `outbox` nodemailer's stream transport builds the
 * complete message and it is kept in `mail_outbox` instead. Before every
 * send the recipients are checked against the suppression list (the
 * mail-provider plugin's, when it is loaded): suppressed ones are skipped,
 * and a message with no recipient left is not sent at all. A mail with an
 * idempotency key (given, or derived inside a job) is sent once: the outbox
 * keeps one message per key, SMTP checks the sent-mail ledger before sending
 * and records the key right after (docs/mail.md "Idempotency keys"). Log
 * lines carry masked addresses only. A send made by observed work is
 * reported to its telemetry (docs/observability.md).
 */
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import { BinderyError } from '../errors/bindery-error.js';
import { currentContext } from '../context/execution-context.js';
import { deliverableRecipients, type MailSuppression } from './mail-suppression.js';
import type { MailMessage, Mailer, MailResult } from './mailer.js';
import { keepInOutbox } from './outbox.js';
import { keyedMessageId, mailIdempotencyKey } from './mail-keys.js';
import { SentMailLedger } from './mail-ledger.js';
import { maskEmail } from './mask-email.js';
import { OUTBOX_DEFAULT_FROM, type MailSettings } from './settings.js';
import type { AnyKysely } from '../db/any-kysely.js';

/** What the mailer reads at send time: the suppression source may be added after it (plugins load last). */
export interface MailerServices {
  readonly mailSuppression?: MailSuppression;
}

/** What an {@link AppMailer} is built from. */
export interface AppMailerOptions {
  readonly settings: MailSettings;
  readonly db: AnyKysely;
  readonly services: MailerServices;
  readonly log: FastifyBaseLogger;
}

/**
 * Sends (or keeps) messages through nodemailer.
 * @example await mailer.send({ to: 'ada@example.com', subject: 'Hi', text: 'Hello.' });
 */
export class AppMailer implements Mailer {
  readonly driver: MailSettings['MAIL_DRIVER'];
  readonly from: string;
  readonly #transport: Transporter;
  readonly #db: AnyKysely;
  readonly #services: MailerServices;
  readonly #log: FastifyBaseLogger;
  readonly #ledger: SentMailLedger;

  constructor(options: AppMailerOptions) {
    const s = options.settings;
    this.driver = s.MAIL_DRIVER;
    this.from = s.MAIL_FROM ?? OUTBOX_DEFAULT_FROM;
    this.#db = options.db;
    this.#services = options.services;
    this.#log = options.log;
    this.#ledger = new SentMailLedger(options.db, options.log);
    this.#transport =
      s.MAIL_DRIVER === 'smtp'
        ? nodemailer.createTransport({
            host: s.MAIL_HOST,
            port: s.MAIL_PORT,
            secure: s.MAIL_PORT === 465,
            ...(s.MAIL_USER === undefined ? {} : { auth: { user: s.MAIL_USER, pass: s.MAIL_PASSWORD ?? '' } }),
            connectionTimeout: 10_000,
            greetingTimeout: 10_000,
            socketTimeout: 20_000,
          })
        : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  }

  /**
   * Send `message` to its deliverable recipients (or keep it in the outbox).
   * @returns the recipients it went to and those skipped as suppressed; `alreadySent` when its idempotency key was sent before (nothing sent now).
   * @throws {BinderyError} `BINDERY_MAIL_FAILED` when the transport fails (SMTP unreachable, login or message refused).
   */
  send(message: MailMessage): Promise<MailResult> {
    const telemetry = currentContext()?.telemetry;
    if (telemetry === undefined) return this.#send(message);
    const to = typeof message.to === 'string' ? [message.to] : message.to;
    return telemetry.sendMail({ subject: message.subject, to, driver: this.driver }, () => this.#send(message));
  }

  async #send(message: MailMessage): Promise<MailResult> {
    const recipients = typeof message.to === 'string' ? [message.to] : [...message.to];
    // Derived before anything is awaited: in a job, the nth mail of a run gets the nth key on every run.
    const key = mailIdempotencyKey(message.idempotencyKey, recipients, message.subject);
    const { deliver, skipped } = await deliverableRecipients(this.#services, recipients);
    if (skipped.length > 0)
      this.#log.info({ skipped: skipped.map(maskEmail), subject: message.subject }, 'suppressed recipients not mailed');
    if (deliver.length === 0) return { delivered: [], skipped };
    if (key !== undefined && this.driver === 'smtp' && (await this.#ledger.has(key)))
      return this.#alreadySent(key, message, deliver, skipped);
    const info = await this.#transmit(message, deliver, key);
    if (this.driver === 'outbox') {
      const kept = await keepInOutbox(this.#db, {
        messageId: info.messageId,
        from: this.from,
        to: deliver,
        subject: message.subject,
        text: message.text,
        html: message.html ?? null,
        raw: Buffer.isBuffer(info.message) ? info.message.toString('utf8') : '',
        idempotencyKey: key ?? null,
      });
      if (!kept) return this.#alreadySent(key!, message, deliver, skipped);
    } else if (key !== undefined) {
      await this.#ledger.record(key, info.messageId);
    }
    this.#log.info(
      {
        to: deliver.map(maskEmail),
        subject: message.subject,
        driver: this.driver,
        message_id: info.messageId,
        ...(key === undefined ? {} : { idempotency_key: key }),
      },
      'mail sent',
    );
    return { delivered: deliver, skipped };
  }

  /** Hand the message to nodemailer (SMTP, or the stream transport that builds it for the outbox). */
  async #transmit(message: MailMessage, to: string[], key: string | undefined): Promise<{ messageId: string; message?: unknown }> {
    try {
      return await this.#transport.sendMail({
        from: this.from,
        to,
        subject: message.subject,
        text: message.text,
        ...(message.html === undefined ? {} : { html: message.html }),
        ...(key === undefined ? {} : { messageId: keyedMessageId(key, this.from) }),
      });
    } catch (error) {
      throw new BinderyError(
        'BINDERY_MAIL_FAILED',
        `The mail "${message.subject}" could not be sent through ${this.driver} (MAIL_HOST, MAIL_PORT, MAIL_USER): ${(error as Error).message}`,
        { cause: error },
      );
    }
  }

  #alreadySent(key: string, message: MailMessage, deliver: string[], skipped: string[]): MailResult {
    this.#log.info(
      { subject: message.subject, driver: this.driver, idempotency_key: key },
      'mail already sent under this idempotency key; not sent again',
    );
    return { delivered: deliver, skipped, alreadySent: true };
  }

  /** Close the transport (SMTP connections). */
  close(): void {
    this.#transport.close();
  }
}
