/**
 * `bindery audit:anonymize user <user_id>` (docs/spec.md 6.1 rule 12; docs/audit.md "Erasure").
 */
import { Command, Option, UsageError } from 'clipanion';
import { AppCommand } from '../../app/app-command.js';

export class AuditAnonymizeCommand extends AppCommand {
  static override paths = [['audit:anonymize']];
  static override usage = Command.Usage({
    category: 'Audit',
    description: 'Replace an actor with "erased" in every audit entry and drop those entries\' IP addresses.',
    details: "Entries about the person's own rows keep their values. The run is recorded as the entry `audit.anonymized`.",
    examples: [['Erase user 42 from the audit log', '$0 audit:anonymize user 42']],
  });

  actorType = Option.String({ name: 'type' });
  actorId = Option.String({ name: 'id' });

  protected async run(): Promise<number> {
    if (!/^[a-z][a-z0-9_]*$/.test(this.actorType) || this.actorType === 'system' || this.actorType === 'erased') {
      throw new UsageError(
        `"${this.actorType}" is not an actor type to anonymize; use e.g. "user" (bindery audit:anonymize user <user_id>).`,
      );
    }
    if (this.actorId.trim() === '') throw new UsageError('Give the ID of the actor to anonymize: bindery audit:anonymize user <user_id>.');
    const booted = await this.boot();
    const { auditLogOf } = await import('./audit-log-of.js');
    const { anonymizeActor } = await import('../anonymize.js');
    const result = await anonymizeActor(auditLogOf(booted.services), { type: this.actorType, id: this.actorId.trim() });
    this.out(
      `Anonymized ${this.actorType} ${this.actorId.trim()}: ${result.entries} audit ${result.entries === 1 ? 'entry' : 'entries'} and ${result.bulk} bulk ${result.bulk === 1 ? 'entry' : 'entries'} now read "erased".\n`,
    );
    return 0;
  }
}
