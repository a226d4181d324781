/**
 * `bindery audit:prune` (docs/spec.md 6.1 rule 11; docs/audit.md "Retention").
 */
import { Command } from 'clipanion';
import { AppCommand } from '../../app/app-command.js';

export class AuditPruneCommand extends AppCommand {
  static override paths = [['audit:prune']];
  static override usage = Command.Usage({
    category: 'Audit',
    description: 'Delete audit entries older than AUDIT_RETENTION_DAYS, in batches, and record that it did.',
    details:
      'With AUDIT_RETENTION_DAYS=0 (the default) every entry is kept and nothing is deleted. The run is recorded as the entry `audit.pruned` with the cut-off time and the counts.',
    examples: [['Prune with the configured retention', '$0 audit:prune']],
  });

  protected async run(): Promise<number> {
    const booted = await this.boot();
    const { auditLogOf } = await import('./audit-log-of.js');
    const { pruneAuditLog } = await import('../prune.js');
    const log = auditLogOf(booted.services);
    const result = await pruneAuditLog(log);
    if (result === null) {
      this.out('AUDIT_RETENTION_DAYS is 0: every audit entry is kept; nothing to prune.\n');
      return 0;
    }
    this.out(
      `Pruned ${result.entries} audit ${result.entries === 1 ? 'entry' : 'entries'} and ${result.bulk} bulk ${result.bulk === 1 ? 'entry' : 'entries'} written before ${result.before.toISOString()} (AUDIT_RETENTION_DAYS=${log.settings.AUDIT_RETENTION_DAYS}).\n`,
    );
    return 0;
  }
}
