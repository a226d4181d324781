/**
 * `bindery mail:outbox [--to <address>] [--limit <n>] [--json]`
 * (docs/mail.md "The outbox").
 */
import { Command, Option, UsageError } from 'clipanion';
import { AppCommand } from '../../app/app-command.js';

/** Print the messages kept by `MAIL_DRIVER=outbox`, newest first. */
export class MailOutboxCommand extends AppCommand {
  static override paths = [['mail:outbox']];
  static override usage = Command.Usage({
    category: 'Mail',
    description: 'Print the mail kept in the outbox (MAIL_DRIVER=outbox), newest first.',
    details: `
      Each message is printed with its recipients, subject, time and text body, links written out in full, so a verification or password reset link can be followed without a mail server. \`--json\` prints a JSON array instead (\`id\`, \`to\`, \`from\`, \`subject\`, \`sent_at\`, \`text\`, \`html\`, \`links\`).

      Prints "The outbox is empty." when there is nothing to show (with \`--json\`: \`[]\`).
    `,
    examples: [
      ['The 20 newest messages', '$0 mail:outbox'],
      ['The newest message to one address, as JSON', '$0 mail:outbox --to ada@example.com --limit 1 --json'],
    ],
  });

  to = Option.String('--to', { description: 'Only messages to this address (case-insensitive).' });
  limit = Option.String('--limit', '20', { description: 'At most this many messages (default 20).' });
  json = Option.Boolean('--json', false, { description: 'Print JSON.' });

  protected async run(): Promise<number> {
    const limit = Number(this.limit);
    if (!/^\d+$/.test(this.limit) || limit < 1 || limit > 10_000)
      throw new UsageError(`--limit must be a whole number from 1 to 10000, got ${JSON.stringify(this.limit)}.`);
    const { db, settings } = await this.boot();
    const { readOutbox } = await import('../outbox.js');
    const messages = await readOutbox(db.database.db, { ...(this.to === undefined ? {} : { to: this.to }), limit });
    if (this.json) {
      this.out(
        `${JSON.stringify(
          messages.map((m) => ({
            id: m.id,
            to: m.to,
            from: m.from,
            subject: m.subject,
            sent_at: m.sentAt.toISOString(),
            text: m.text,
            html: m.html,
            links: m.links,
          })),
          null,
          2,
        )}\n`,
      );
      return 0;
    }
    if (messages.length === 0) {
      this.out(this.to === undefined ? 'The outbox is empty.\n' : `No mail to ${this.to} in the outbox.\n`);
      if (settings.all.MAIL_DRIVER === 'smtp') this.out('MAIL_DRIVER is smtp: mail is sent through MAIL_HOST, not kept here.\n');
      return 0;
    }
    const rule = '─'.repeat(72);
    this.out(
      messages
        .map((m) =>
          [
            rule,
            `#${m.id}  ${m.sentAt.toISOString()}`,
            `To:      ${m.to.join(', ')}`,
            `From:    ${m.from}`,
            `Subject: ${m.subject}`,
            '',
            m.text.replace(/\n+$/, ''),
            '',
          ].join('\n'),
        )
        .join('\n'),
    );
    return 0;
  }
}
