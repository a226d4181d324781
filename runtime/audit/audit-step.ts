/**
 * The `audit()` setup step (docs/boot.md "Setup steps"; docs/audit.md
 * "Setting up"): settings, the `audit` migration set, the audit log and
 * tracked models as services, the `audit:prune` and `audit:anonymize`
 * commands, and requests inside their execution context so entries name the
 * actor, the request and its ID.
 */
import { fileURLToPath } from 'node:url';
import type { SetupStep } from '../app/setup-step.js';
import { AuditLog } from './audit-log.js';
import { AuditAnonymizeCommand } from './commands/audit-anonymize-command.js';
import { AuditPruneCommand } from './commands/audit-prune-command.js';
import { auditSettings } from './settings.js';
import type { TrackedResourceConfig } from './tracked-config.js';

/** The folder of the `audit` migration set. */
export const AUDIT_MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

/** Options of {@link audit}. */
export interface AuditStepOptions<R extends Readonly<Record<string, TrackedResourceConfig>>> {
  /** The tracked resources: `trackedResources` of `generated/audit.ts`. */
  readonly tracked?: R;
  /**
   * Soft-delete models whose deleted rows `pruneSoftDeleted` (`bindery
   * prune`) removes, with the period after deletion: `{ Document: '30d' }`.
   */
  readonly prunable?: { readonly [K in keyof R]?: string | number };
}

/**
 * The audit log as a setup step.
 *
 * Adds `ctx.services.audit` (the {@link AuditLog}) and `ctx.services.models`
 * (the tracked models by resource name), the settings `AUDIT_IP`,
 * `AUDIT_BULK_MAX_VALUES`, `AUDIT_RETENTION_DAYS`, the migration set `audit`
 * (tables `audit_log`, `audit_bulk`, `audit_bulk_items`), and the commands
 * `audit:prune` and `audit:anonymize`.
 *
 * @throws {AuditModelError} at boot for a model without primary key, tracked twice, or an unknown prunable model.
 * @example setup: [audit({ tracked: trackedResources, prunable: { Document: '30d' } })]
 */
export function audit<R extends Readonly<Record<string, TrackedResourceConfig>>>(options: AuditStepOptions<R> = {}): SetupStep {
  return {
    name: 'audit',
    call: 'audit()',
    settings: auditSettings,
    migrations: [{ source: 'audit', dir: AUDIT_MIGRATIONS_DIR }],
    commands: [AuditPruneCommand, AuditAnonymizeCommand],
    setup(ctx) {
      const log = new AuditLog({ database: ctx.database, settings: ctx.settingsOf(auditSettings) });
      ctx.onClose(() => log.close());
      const models = log.trackAll(options.tracked ?? {});
      for (const [name, period] of Object.entries(options.prunable ?? {})) {
        if (period !== undefined) log.registerPrunable(name, period as string | number);
      }
      ctx.services.audit = log;
      ctx.services.models = models;
      ctx.useExecutionContext();
    },
  };
}
