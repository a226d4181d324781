/**
 * The reference app's scheduled tasks (docs/spec.md 3 "prune
 * command or scheduled prune", docs/spec.md 6.1 rule 11): both run on the app's
 * workers (`bindery worker`, or `bindery serve --worker`), by `system` via
 * the task, and catch up a missed night when a worker starts.
 */
import type { AuditLog } from 'bindery/audit';
import { pruneAuditLog, pruneSoftDeleted } from 'bindery/audit';
import { requireService, type Services } from 'bindery/http';
import { defineScheduledTask } from 'bindery/schedule';
import { storageOf, sweepOrphans } from 'bindery/storage';

function auditLogOf(services: Services): AuditLog {
  return requireService(services, 'audit', 'audit()', 'the scheduled prunes');
}

/** `documents:prune`: remove documents soft-deleted more than 30 days ago (what `bindery prune` does), daily at 03:30 UTC. */
export const pruneDocuments = defineScheduledTask({
  name: 'documents:prune',
  cron: '30 3 * * *',
  description: 'Remove rows soft-deleted longer ago than their registered period (documents: 30 days).',
  backfill: '24h',
  maxAttempts: 5,
  async run({ services, log }) {
    const results = await pruneSoftDeleted(auditLogOf(services));
    for (const r of results) log.info({ table: r.table, deleted: r.deleted }, `documents:prune: ${r.table}: deleted ${r.deleted}`);
  },
});

/** `audit:prune`: delete audit entries older than AUDIT_RETENTION_DAYS (what `bindery audit:prune` does), daily at 04:00 UTC. */
export const pruneAudit = defineScheduledTask({
  name: 'audit:prune',
  cron: '0 4 * * *',
  description: 'Delete audit entries older than AUDIT_RETENTION_DAYS (0 keeps everything).',
  backfill: '24h',
  maxAttempts: 5,
  async run({ services, log }) {
    const result = await pruneAuditLog(auditLogOf(services));
    log.info({ result }, 'audit:prune done');
  },
});

/** `storage:sweep`: remove stored files no row holds (uploads never attached, files of rows replaced or deleted), hourly. */
export const sweepStorage = defineScheduledTask({
  name: 'storage:sweep',
  cron: '15 * * * *',
  description:
    'Remove stored files no row holds: uploads older than STORAGE_ORPHAN_AGE never attached, files of replaced or deleted rows left behind.',
  maxAttempts: 3,
  async run({ services, log }) {
    const result = await sweepOrphans(storageOf(services));
    log.info({ result }, `storage:sweep: removed ${result.removed}`);
  },
});

/** Every scheduled task of the app, for `schedule({ tasks })`. */
export const scheduledTasks = [pruneDocuments, pruneAudit, sweepStorage];
