/**
 * Retention (docs/spec.md 6.1 rule 11) and the prune of soft-deleted rows (docs/spec.md
 * 3 "Document row | deleted | prune command or scheduled prune").
 *
 * Both are plain functions of the audit log so a command (`bindery
 * audit:prune`, `bindery prune`) and a scheduled job can run them alike.
 */
import type { AuditLog } from './audit-log.js';
import { writerFor } from './writers/for-engine.js';

/** Milliseconds in a day. */
const DAY = 86_400_000;

/** Options of {@link pruneAuditLog}. */
export interface PruneAuditLogOptions {
  /** Days to keep (default: the log's `AUDIT_RETENTION_DAYS`); 0 keeps everything. */
  readonly retentionDays?: number;
  /** The current time (default: now). */
  readonly now?: Date;
  /** Entries per transaction (default 1,000). */
  readonly batchSize?: number;
}

/** What {@link pruneAuditLog} deleted. */
export interface PruneAuditLogResult {
  /** Entries written before this time were deleted. */
  readonly before: Date;
  /** `audit_log` entries deleted. */
  readonly entries: number;
  /** `audit_bulk` entries deleted (with their items). */
  readonly bulk: number;
}

/**
 * Delete audit entries older than the retention period, in batches (one
 * transaction each), then record the entry `audit.pruned` with properties
 * `{ before, entries, bulk }`.
 * @returns what was deleted, or null when the retention is 0 (nothing is deleted or recorded).
 * @example const result = await pruneAuditLog(ctx.services.audit); // a scheduled job
 */
export async function pruneAuditLog(log: AuditLog, options: PruneAuditLogOptions = {}): Promise<PruneAuditLogResult | null> {
  const days = options.retentionDays ?? log.settings.AUDIT_RETENTION_DAYS;
  if (days === 0) return null;
  const batch = options.batchSize ?? 1000;
  const before = new Date((options.now ?? new Date()).getTime() - days * DAY);
  const { db, engine } = log.database;
  const writer = writerFor(engine);
  let entries = 0;
  for (;;) {
    const n = await writer.pruneEntries(db, before, batch);
    entries += n;
    if (n < batch) break;
  }
  let bulk = 0;
  for (;;) {
    const n = await writer.pruneBulk(db, before, batch);
    bulk += n;
    if (n < batch) break;
  }
  await log.record({ action: 'audit.pruned', details: { before: before.toISOString(), entries, bulk } });
  return { before, entries, bulk };
}

/** Options of {@link pruneSoftDeleted}. */
export interface PruneSoftDeletedOptions {
  /** Report what would be deleted, delete nothing. Default false. */
  readonly dryRun?: boolean;
  /** The current time (default: now). */
  readonly now?: Date;
  /** Rows per transaction and bulk entry (default 1,000). */
  readonly batchSize?: number;
  /** Called after each batch (progress). */
  readonly onBatch?: (progress: { readonly model: string; readonly table: string; readonly deleted: number }) => void;
}

/** What {@link pruneSoftDeleted} did for one model. */
export interface SoftDeletePruneResult {
  readonly model: string;
  readonly table: string;
  /** Rows soft-deleted before this time were (or would be) removed. */
  readonly before: Date;
  /** Rows removed (0 in a dry run). */
  readonly deleted: number;
  /** Dry run: the keys that would be removed. */
  readonly keys?: readonly unknown[];
}

/**
 * Remove rows soft-deleted more than their registered period ago
 * (`AuditLog.registerPrunable`; the `audit()` step's `prunable` option), 1,000
 * per transaction, each batch one bulk `force_deleted` entry attributed like
 * any write (by `system` via the command or job running it).
 * @example const results = await pruneSoftDeleted(ctx.services.audit); // a scheduled job
 */
export async function pruneSoftDeleted(log: AuditLog, options: PruneSoftDeletedOptions = {}): Promise<SoftDeletePruneResult[]> {
  const batch = options.batchSize ?? 1000;
  const now = (options.now ?? new Date()).getTime();
  const results: SoftDeletePruneResult[] = [];
  for (const { model, periodMs } of log.prunable) {
    const before = new Date(now - periodMs);
    const column = model.config.softDelete!;
    const query = model.query().onlyDeleted().where(column, '<', before);
    if (options.dryRun) {
      results.push({ model: model.name, table: model.table, before, deleted: 0, keys: await query.keys() });
      continue;
    }
    let deleted = 0;
    for (;;) {
      const n = await query.limit(batch).forceDelete();
      deleted += n;
      if (n > 0) options.onBatch?.({ model: model.name, table: model.table, deleted: n });
      if (n < batch) break;
    }
    results.push({ model: model.name, table: model.table, before, deleted });
  }
  return results;
}
