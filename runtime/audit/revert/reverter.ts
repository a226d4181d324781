/**
 * Reverts (docs/audit.md "Revert"): of one single-row entry, of one bulk
 * entry as one unit, of every entry of one request as one unit. Each runs in
 * one transaction, locks the rows before comparing, and writes through the
 * tracked models and the bulk writer, so every revert is itself audited
 * (action `reverted`) and can be reverted in turn.
 */
import { sql } from 'kysely';
import type { AnyKysely } from '../../db/any-kysely.js';
import type { AuditLog } from '../audit-log.js';
import { writerFor } from '../writers/for-engine.js';
import { bulkRows, logRows, validEntryId, type BulkRow, type LogRow } from '../reads/entry-rows.js';
import type { AuditEntryEvent } from '../reads/event.js';
import { readEntry } from '../reads/timeline.js';
import { AuditEntryNotFoundError, type EntryRef } from './errors.js';
import { revertBulkEntry } from './bulk.js';
import type { RevertAuthorize, RevertNote, RevertRun } from './run.js';
import { revertLogEntry } from './single.js';

/** Options of every revert. */
export interface RevertOptions {
  /**
   * Fields whose conflicts the caller accepts (a change's revert then
   * writes the entry's old value over the current one), and columns a
   * re-insert may leave to their defaults (values the entry did not keep).
   */
  readonly confirm?: readonly string[] | undefined;
  /** Asked before each write of the revert; see {@link RevertAuthorize} and `policyAuthorizer`. */
  readonly authorize?: RevertAuthorize | undefined;
}

/** What a revert wrote. */
export interface RevertResult {
  /** The entries the revert wrote (each `reverted`), in the order written. */
  readonly entries: AuditEntryEvent[];
  /** Fields left as they were (a redacted field, whose old value is not kept). */
  readonly notes: RevertNote[];
}

async function inTransaction(
  log: AuditLog,
  reverted: Record<string, unknown>,
  options: RevertOptions,
  fn: (run: RevertRun) => Promise<void>,
): Promise<RevertResult> {
  const { db, engine } = log.database;
  return db.transaction().execute(async (trx: AnyKysely) => {
    const run: RevertRun = {
      log,
      trx,
      engine,
      writer: writerFor(engine),
      confirm: new Set(options.confirm ?? []),
      authorize: options.authorize,
      reverted,
      written: [],
      notes: [],
    };
    await fn(run);
    const tracked = [...log.models.values()].map((m) => m.config);
    const entries: AuditEntryEvent[] = [];
    for (const ref of run.written) {
      const event = await readEntry(trx, ref, tracked);
      if (event !== undefined) entries.push(event);
    }
    return { entries, notes: run.notes };
  });
}

/**
 * Revert one entry: an `updated` entry writes its old values back (409
 * {@link RevertConflictError} with the three-way difference when a field
 * changed since, unless `confirm` names it; redacted fields are left as
 * they are and listed in `notes`); `created` deletes the row (soft on a
 * soft-delete model); `deleted` restores it; `restored` deletes it again;
 * `force_deleted` inserts it again from the entry's values (refused when
 * its key or a value unique among live rows is taken, a referenced row is
 * missing, or the entry did not keep a column — `confirm` it to leave it to
 * its default); a `reverted` entry is reverted as the write it performed. A
 * bulk reference is {@link revertBulk}'s.
 *
 * @param log the app's `AuditLog` (`ctx.services.audit`): its tracked models write the revert.
 * @param ref the entry (`{ kind: 'entry', id }`) as the reads give it, or an entry ID.
 * @returns the entries written (the revert's own, action `reverted`, details `{ reverted: { kind, id }, performed }`).
 * @throws {AuditEntryNotFoundError} (404) for an unknown entry.
 * @throws {RevertConflictError} (409) `BINDERY_AUDIT_REVERT_CONFLICT`; {@link RevertRefusedError} (409); {@link RevertForbiddenError} (403) or the hook's own refusal. Nothing is written then.
 */
export async function revertEntry(log: AuditLog, ref: EntryRef | string, options: RevertOptions = {}): Promise<RevertResult> {
  const entryRef: EntryRef = typeof ref === 'string' ? { kind: 'entry', id: ref } : ref;
  if (entryRef.kind === 'bulk') return revertBulk(log, entryRef.id, options);
  return inTransaction(log, { kind: 'entry', id: entryRef.id }, options, async (run) => {
    const [entry] = await logRows(run.trx, [entryRef.id]);
    if (entry === undefined) throw new AuditEntryNotFoundError(entryRef);
    await revertLogEntry(run, entry);
  });
}

/**
 * Revert one bulk entry as one unit: every row back to its values before,
 * in one transaction, with one new bulk entry `reverted` (details
 * `{ reverted: { kind: 'bulk', id }, performed }`). A bulk update writes the
 * old values back, a bulk delete restores the rows, a bulk restore deletes
 * them, a bulk create deletes them, a bulk force delete inserts them again.
 * Refused with the rows named when some changed since (their values now are
 * not the entry's values after, or they are gone) and when the entry did
 * not keep every row's values (`values_complete` false).
 *
 * @param bulkId the bulk entry's ID.
 * @throws {AuditEntryNotFoundError} (404); {@link RevertConflictError} (409); {@link RevertRefusedError} (409); {@link RevertForbiddenError} (403).
 */
export async function revertBulk(log: AuditLog, bulkId: string, options: RevertOptions = {}): Promise<RevertResult> {
  const ref: EntryRef = { kind: 'bulk', id: bulkId };
  return inTransaction(log, { ...ref }, options, async (run) => {
    const [bulk] = await bulkRows(run.trx, [bulkId]);
    if (bulk === undefined) throw new AuditEntryNotFoundError(ref);
    await revertBulkEntry(run, bulk);
  });
}

/**
 * Revert every entry (single-row and bulk) of one request ID as one unit
 * ("undo what this form did"): newest first, in one transaction; any
 * conflict or refusal refuses all. Application events of the request are
 * not writes and are left out. Each entry written has details
 * `{ reverted: { requestId }, performed }`.
 *
 * @throws {AuditEntryNotFoundError} (404) when no write has that request ID.
 * @throws {RevertConflictError} (409); {@link RevertRefusedError} (409); {@link RevertForbiddenError} (403).
 */
export async function revertRequest(log: AuditLog, requestId: string, options: RevertOptions = {}): Promise<RevertResult> {
  return inTransaction(log, { requestId }, options, async (run) => {
    const entries = await requestEntries(run.trx, requestId);
    const writes = entries.filter((e) => e.kind === 'bulk' || isWrite(e));
    if (writes.length === 0) throw new AuditEntryNotFoundError({ requestId });
    for (const entry of writes) {
      if (entry.kind === 'bulk') await revertBulkEntry(run, entry);
      else await revertLogEntry(run, entry);
    }
  });
}

const WRITES = new Set(['created', 'updated', 'deleted', 'restored', 'force_deleted', 'reverted']);

function isWrite(entry: LogRow): boolean {
  return WRITES.has(entry.action) && entry.subjectId !== null;
}

/** Every entry of a request, newest first (single-row entries before bulk ones at equal times, then the higher ID), locked. */
async function requestEntries(trx: AnyKysely, requestId: string): Promise<(LogRow | BulkRow)[]> {
  const ids = (await trx
    .selectFrom('audit_log')
    .select([sql<number>`0`.as('kind'), 'id', 'occurred_at'])
    .where('request_id', '=', requestId)
    .unionAll(
      trx
        .selectFrom('audit_bulk')
        .select([sql<number>`1`.as('kind'), 'id', 'occurred_at'])
        .where('request_id', '=', requestId),
    )
    .orderBy('occurred_at', 'desc')
    .orderBy('kind')
    .orderBy('id', 'desc')
    .execute()) as { kind: unknown; id: unknown }[];
  const single = new Map(
    (
      await logRows(
        trx,
        ids.filter((r) => Number(r.kind) === 0).map((r) => String(r.id)),
      )
    ).map((r) => [r.id, r]),
  );
  const bulk = new Map(
    (
      await bulkRows(
        trx,
        ids.filter((r) => Number(r.kind) === 1).map((r) => String(r.id)),
      )
    ).map((r) => [r.id, r]),
  );
  return ids
    .map((r) => (Number(r.kind) === 0 ? single.get(String(r.id)) : bulk.get(String(r.id))))
    .filter((e): e is LogRow | BulkRow => e !== undefined);
}

/** Whether `id` can name an entry: the routes answer 404 at once for anything else. */
export function isEntryId(id: string): boolean {
  return validEntryId(id);
}
