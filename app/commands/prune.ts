/**
 * `bindery prune [--dry-run]` (docs/spec.md 3 "Document row | deleted | prune
 * command"): remove rows soft-deleted more than their registered period ago
 * (documents: 30 days, `app/main.ts`), 1,000 per transaction, one bulk
 * `force_deleted` entry per batch by `system` via `prune`.
 */
import { Command, Option } from 'clipanion';
import { AppCommand } from 'bindery/cli';
import { requireService } from 'bindery/http';

export class PruneCommand extends AppCommand {
  static override paths = [['prune']];
  static override usage = Command.Usage({
    category: 'App',
    description: 'Remove rows soft-deleted longer ago than their registered period (documents: 30 days).',
    details:
      'Deletes 1,000 rows per transaction; each batch is one bulk `force_deleted` audit entry by `system` via `prune`. With --dry-run, lists what would be removed and removes nothing.',
    examples: [
      ['Remove old deleted documents', '$0 prune'],
      ['Show what would be removed', '$0 prune --dry-run'],
    ],
  });

  dryRun = Option.Boolean('--dry-run', false, { description: 'Only list what would be removed.' });

  protected async run(): Promise<number> {
    const booted = await this.boot();
    const { pruneSoftDeleted } = await import('bindery/audit');
    const log = requireService(booted.services, 'audit', 'audit()', 'bindery prune');
    const results = await pruneSoftDeleted(log, {
      dryRun: this.dryRun,
      onBatch: ({ table, deleted }) => this.out(`${table}: deleted ${deleted} ${deleted === 1 ? 'row' : 'rows'}\n`),
    });
    for (const r of results) {
      const since = `soft-deleted before ${r.before.toISOString()}`;
      if (this.dryRun) {
        const keys = r.keys ?? [];
        const shown = keys.length > 20 ? `${keys.slice(0, 20).join(', ')}, … (${keys.length - 20} more)` : keys.join(', ');
        this.out(
          keys.length === 0
            ? `${r.table}: nothing ${since}\n`
            : `${r.table}: would delete ${keys.length} ${keys.length === 1 ? 'row' : 'rows'} ${since} (keys ${shown})\n`,
        );
      } else {
        this.out(
          r.deleted === 0
            ? `${r.table}: nothing ${since}\n`
            : `${r.table}: deleted ${r.deleted} ${r.deleted === 1 ? 'row' : 'rows'} in total, ${since}\n`,
        );
      }
    }
    if (results.length === 0) this.out('No model is registered for pruning.\n');
    return 0;
  }
}
