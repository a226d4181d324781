/**
 * The audit log of row changes (docs/spec.md 2.4, 2.5, 5.8, 6.1; docs/audit.md).
 *
 * Apps add `audit({ tracked: trackedResources })` to their setup list;
 * handlers write through `ctx.services.models.<Resource>` and record events
 * with `ctx.services.audit.record(...)`; jobs schedule `pruneAuditLog` and
 * `pruneSoftDeleted`.
 */
export { audit, AUDIT_MIGRATIONS_DIR, type AuditStepOptions } from './audit-step.js';
export { AuditLog, type AuditEvent, type AuditLogOptions, type ModelsOf, type PrunableModel } from './audit-log.js';
export { TrackedModel, type KeyOf, type RowCondition, type RowOf, type RowOptions } from './tracked-model.js';
export { BulkQuery } from './bulk-query.js';
export type { UpsertOptions } from './bulk-writer.js';
export { readHistory, type HistoryEvent, type HistoryOptions, type HistoryPage } from './history.js';
export {
  pruneAuditLog,
  pruneSoftDeleted,
  type PruneAuditLogOptions,
  type PruneAuditLogResult,
  type PruneSoftDeletedOptions,
  type SoftDeletePruneResult,
} from './prune.js';
export { anonymizeActor, ERASED, type AnonymizeResult } from './anonymize.js';
export { auditSettings, AUDIT_IP_MODES, DEFAULT_AUDIT_SETTINGS, type AuditIpMode, type AuditSettings } from './settings.js';
export { maskIp } from './ip.js';
export { actorLabel, attribute, MAX_ACTOR_ID_BYTES, type Attribution } from './attribution.js';
export { REDACTED, SENSITIVE_NAME, type TrackedResourceConfig } from './tracked-config.js';
export { BULK_CHUNK, MAX_KEY_BYTES } from './entries.js';
export {
  AuditActorTooLongError,
  AuditBulkConflictError,
  AuditCursorError,
  AuditKeyTooLongError,
  AuditModelError,
  AuditUpsertKeyError,
} from './errors.js';
export { AuditPruneCommand } from './commands/audit-prune-command.js';
export { AuditAnonymizeCommand } from './commands/audit-anonymize-command.js';
