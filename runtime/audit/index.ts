/**
 * The audit log of row changes (docs/spec.md 2.4, 2.5, 5.8, 6.1; docs/audit.md).
 *
 * Apps add `audit({ tracked: trackedResources })` to their setup list;
 * handlers write through `ctx.services.models.<Resource>` and record events
 * with `ctx.services.audit.record(...)`; jobs schedule `pruneAuditLog` and
 * `pruneSoftDeleted`.
 */
export { audit, type AuditStepOptions } from './audit-step.js';
export { AuditLog, type AuditEvent } from './audit-log.js';
export { TrackedModel, type RowCondition, type RowOf, type RowOptions } from './tracked-model.js';
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
export { anonymizeActor, type AnonymizeResult } from './anonymize.js';
export type { TrackedResourceConfig } from './tracked-config.js';
export { readTimeline, readEntry, type TimelinePage } from './reads/timeline.js';
export { readActivity, type ActivityFilters, type ActivityPage, type ActivityPageOptions } from './reads/activity.js';
export type { AuditEntryEvent, FieldDiff, TrackedConfigs } from './reads/event.js';
export { revertEntry, revertBulk, revertRequest, type RevertOptions, type RevertResult } from './revert/reverter.js';
export { policyAuthorizer, type PolicyRequest } from './revert/authorize.js';
export type { Performed, RevertAuthorize, RevertNote } from './revert/run.js';
export {
  AuditEntryNotFoundError,
  RevertConflictError,
  RevertForbiddenError,
  RevertRefusedError,
  type EntryRef,
  type FieldConflict,
  type RowConflict,
} from './revert/errors.js';
