/**
 * `bindery storage:sweep` (docs/storage.md "Orphans").
 */
import { Command } from 'clipanion';
import { AppCommand } from '../../app/app-command.js';

export class StorageSweepCommand extends AppCommand {
  static override paths = [['storage:sweep']];
  static override usage = Command.Usage({
    category: 'Storage',
    description:
      'Remove stored objects no row holds: uploads older than STORAGE_ORPHAN_AGE never attached, and objects of replaced or deleted rows left behind.',
    examples: [['Sweep now', '$0 storage:sweep']],
  });

  protected async run(): Promise<number> {
    const booted = await this.boot();
    const { storageOf, sweepOrphans } = await import('../sweep.js');
    const result = await sweepOrphans(storageOf(booted.services));
    this.out(
      `Removed ${result.removed} orphaned object${result.removed === 1 ? '' : 's'}${result.failed > 0 ? `; ${result.failed} could not be removed (retried next time)` : ''}.\n`,
    );
    return result.failed > 0 ? 1 : 0;
  }
}
