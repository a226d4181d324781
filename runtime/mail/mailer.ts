/**
 * The mailer (`ctx.services.mailer`): messages through nodemailer, chosen by
 * `MAIL_DRIVER` — `smtp` (default in production) or `outbox` (default in
 * development and testing: every message kept in a table, printed by
 * `bindery mail:outbox`). Suppressed addresses (the mail-provider plugin's
 * list) are skipped. Implemented by the `mail()` setup step.
 */

/** A message to send. */
export interface MailMessage {
  readonly to: string | readonly string[];
  readonly subject: string;
  /** Plain-text body (links written out in full). */
  readonly text: string;
  readonly html?: string;
  /**
   * A key that makes the send happen once (docs/mail.md "Idempotency keys"):
   * a second send with the key of a mail already sent sends nothing. Inside a
   * job, a key is derived from the job and the mail when none is given.
   */
  readonly idempotencyKey?: string;
}

/** What happened to a message. */
export interface MailResult {
  /** Recipients it was sent (or kept in the outbox) for. */
  readonly delivered: readonly string[];
  /** Recipients skipped because they are suppressed. */
  readonly skipped: readonly string[];
  /** True when a mail with the same idempotency key was sent (or kept) before: nothing was sent now. */
  readonly alreadySent?: boolean;
}

export interface Mailer {
  /** Send a message (or keep it in the outbox). */
  send(message: MailMessage): Promise<MailResult>;
}

declare module '../http/context.js' {
  interface Services {
    /** Present once `mail()` is set up. */
    readonly mailer?: Mailer;
  }
}
