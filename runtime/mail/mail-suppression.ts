/**
 * The suppression check the app's mailer calls before sending (docs/spec.md 6.2
 * "The application's own listeners may consult the suppression list before
 * sending mail"; docs/plugins.md "Suppressed addresses").
 *
 * A plugin that keeps a suppression list (the mail-provider plugin) adds a
 * check with {@link addMailSuppression}; the mailer asks
 * {@link deliverableRecipients} (or `services.mailSuppression`) which
 * recipients to drop. Without such a plugin nothing is suppressed, so the
 * mailer needs no plugin to type-check or run.
 */

/** A source of addresses that must not be mailed. */
export interface MailSuppression {
  /** True when `email` (compared trimmed and lower-cased) must not be mailed. */
  isSuppressed(email: string): Promise<boolean>;
  /** The addresses among `emails` that must not be mailed, trimmed and lower-cased. */
  suppressedAmong(emails: readonly string[]): Promise<Set<string>>;
}

declare module '../http/context.js' {
  interface Services {
    /** Set when a plugin keeps a suppression list (the mail-provider plugin); absent otherwise. */
    mailSuppression?: MailSuppression;
  }
}

/** The form addresses are compared in: trimmed, lower-cased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * Add a suppression source to the app's services; with several, an address
 * is suppressed when any of them says so.
 * @example addMailSuppression(ctx.services, suppressions) // in a plugin's boot work
 */
export function addMailSuppression(services: { mailSuppression?: MailSuppression }, check: MailSuppression): void {
  const before = services.mailSuppression;
  if (!before) {
    services.mailSuppression = check;
    return;
  }
  services.mailSuppression = {
    async isSuppressed(email) {
      return (await before.isSuppressed(email)) || check.isSuppressed(email);
    },
    async suppressedAmong(emails) {
      const [a, b] = await Promise.all([before.suppressedAmong(emails), check.suppressedAmong(emails)]);
      return new Set([...a, ...b]);
    },
  };
}

/**
 * Split recipients into those to mail and those suppressed. Call it in the
 * mailer before every send; without a suppression source every recipient is
 * deliverable.
 *
 * @param services the app's services (`ctx.services`, a job's `ctx.services`).
 * @param recipients addresses as given (kept as given in `deliver`).
 * @returns `deliver`: the recipients to mail, in order; `skipped`: the suppressed ones, as given.
 * @example
 *   const { deliver, skipped } = await deliverableRecipients(ctx.services, [user.email]);
 *   if (deliver.length > 0) await transport.sendMail({ ...message, to: deliver });
 *   if (skipped.length > 0) ctx.log.info({ skipped: skipped.map(maskEmail) }, 'suppressed recipients not mailed'); // no full address at info
 */
export async function deliverableRecipients(
  services: { mailSuppression?: MailSuppression },
  recipients: readonly string[],
): Promise<{ deliver: string[]; skipped: string[] }> {
  const check = services.mailSuppression;
  if (!check || recipients.length === 0) return { deliver: [...recipients], skipped: [] };
  const suppressed = await check.suppressedAmong(recipients);
  const deliver: string[] = [];
  const skipped: string[] = [];
  for (const r of recipients) (suppressed.has(normalizeEmail(r)) ? skipped : deliver).push(r);
  return { deliver, skipped };
}
