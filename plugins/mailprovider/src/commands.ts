/**
 * The plugin's commands: `bindery mailprovider:suppressions` and
 * `bindery mailprovider:unsuppress <email>`.
 */
import { Command, Option } from 'clipanion';
import { AppCommand } from 'bindery/cli';
import { requireService } from 'bindery/http';
import { formatTable } from 'bindery/plugins';
import type { MailproviderService } from './service.js';

function serviceOf(services: Readonly<Record<string, unknown>>): MailproviderService {
  return requireService(services, 'mailprovider', 'the mailprovider plugin (bindery add @bindery/mailprovider)', 'This command');
}

/** `bindery mailprovider:suppressions`: the suppression list, sorted by email. */
export class SuppressionsCommand extends AppCommand {
  static override paths = [['mailprovider:suppressions']];
  static override usage = Command.Usage({
    category: 'Plugin: mailprovider',
    description: 'List the suppressed addresses, sorted by email.',
    details: `
      Columns: EMAIL, EVENT (what listed it: the bounce type, SpamComplaint or SubscriptionChange), REASON (the provider's), SINCE (UTC). Prints "No suppressed addresses." when the list is empty.
    `,
  });

  protected async run(): Promise<number> {
    const { services } = await this.boot();
    const rows = await serviceOf(services).suppressions.list();
    if (rows.length === 0) {
      this.out('No suppressed addresses.\n');
      return 0;
    }
    this.out(
      formatTable(
        ['EMAIL', 'EVENT', 'REASON', 'SINCE'],
        rows.map((r) => [r.email, r.event, r.reason, new Date(r.since).toISOString()]),
      ),
    );
    return 0;
  }
}

/** `bindery mailprovider:unsuppress <email>`: remove an address from the list (exit 1 when it is not listed). */
export class UnsuppressCommand extends AppCommand {
  static override paths = [['mailprovider:unsuppress']];
  static override usage = Command.Usage({
    category: 'Plugin: mailprovider',
    description: 'Remove an address from the suppression list, so it is mailed again.',
    details: `
      The address is compared trimmed and lower-cased. Exit 1 when it is not on the list; exit 2 without an address.
    `,
    examples: [['Mail ada@example.com again', '$0 mailprovider:unsuppress ada@example.com']],
  });

  email = Option.String({ name: 'email' });

  protected async run(): Promise<number> {
    const { services } = await this.boot();
    const email = this.email.trim().toLowerCase();
    if (!(await serviceOf(services).suppressions.remove(email, 'command'))) {
      this.err(`${email} is not suppressed.\n`);
      return 1;
    }
    this.out(`Removed ${email} from the suppression list.\n`);
    return 0;
  }
}
