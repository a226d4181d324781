/**
 * The back office's reads of the log (docs/audit.md "Timeline, activity,
 * entry"): a row's timeline, one entry by reference. Engine-neutral: the
 * timeline's order and cursor are the history's (history.ts), the entries'
 * columns are read with plain Kysely.
 */
import type { AnyKysely } from '../../db/any-kysely.js';
import { findEngine } from '../../db/compiled-query.js';
import { AuditEngineError } from '../errors.js';
import { fromCursor, toCursor, type HistoryOptions } from '../history.js';
import { writerFor } from '../writers/for-engine.js';
import type { EntryRef } from '../revert/errors.js';
import { bulkRows, logRows } from './entry-rows.js';
import { bulkEvent, logEvent, modelIndex, type AuditEntryEvent, type TrackedConfigs } from './event.js';

/** One page of a timeline: `next` is present whenever the page is full. */
export interface TimelinePage {
  readonly events: AuditEntryEvent[];
  readonly next?: string;
}

/**
 * The timeline of one row: its own entries (application events about it
 * included) and the bulk writes that touched it, deleted rows too, newest
 * first (at equal times single-row entries first, then the higher ID) —
 * the order and cursor of `readHistory`. Each event carries its reference
 * and its field-by-field diff (for a bulk write, this row's values before
 * and after when the entry kept them).
 *
 * @param db `ctx.services.db` (the instance `connectDatabase` made) or a transaction of it.
 * @param tracked the tracked configurations (`trackedResources` of generated/audit.ts, a list, or one).
 * @param resource the resource name (`Document`) or table (`documents`).
 * @param subjectId the row's key.
 * @param options `cursor` (a previous page's `next`), `limit` 1–1000 (default 50).
 * @throws {AuditCursorError} (400) for a cursor the timeline did not make.
 * @throws {AuditEngineError} for a Kysely instance `connectDatabase` did not make.
 */
export async function readTimeline(
  db: AnyKysely,
  tracked: TrackedConfigs,
  resource: string,
  subjectId: string | number,
  options: HistoryOptions = {},
): Promise<TimelinePage> {
  const engine = findEngine(db);
  if (engine === undefined)
    throw new AuditEngineError('readTimeline needs the Kysely instance connectDatabase made (ctx.services.db) or a transaction of it.');
  const models = modelIndex(tracked);
  const table = models.get(resource)?.table ?? resource;
  const limit = options.limit ?? 50;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > 1000)
    throw new RangeError(`timeline limit must be from 1 to 1000, got ${limit}`);
  const cursor = options.cursor === undefined || options.cursor === '' ? undefined : fromCursor(options.cursor);
  const key = String(subjectId);
  const rows = await writerFor(engine).history(db, table, key, limit, cursor);
  const entries = new Map(
    (
      await logRows(
        db,
        rows.filter((r) => r.kind === 0).map((r) => String(r.id)),
      )
    ).map((r) => [r.id, r]),
  );
  const bulks = new Map(
    (
      await bulkRows(
        db,
        rows.filter((r) => r.kind === 1).map((r) => String(r.id)),
      )
    ).map((r) => [r.id, r]),
  );
  const events: AuditEntryEvent[] = [];
  for (const r of rows) {
    const id = String(r.id);
    const entry = r.kind === 0 ? entries.get(id) : undefined;
    const bulk = r.kind === 1 ? bulks.get(id) : undefined;
    if (entry !== undefined) events.push(logEvent(entry, models));
    else if (bulk !== undefined) events.push(bulkEvent(bulk, models, key));
  }
  const last = rows[rows.length - 1];
  return last !== undefined && rows.length === limit
    ? { events, next: toCursor({ at: last.at_text, kind: last.kind, id: last.id }) }
    : { events };
}

/**
 * One entry by reference, as the timeline and the activity show it (a
 * bulk entry without a row's diff).
 * @param tracked the tracked configurations, for the diff's rules (default: none, every field as recorded).
 * @returns the event, or undefined when no entry has the reference.
 */
export async function readEntry(db: AnyKysely, ref: EntryRef, tracked?: TrackedConfigs): Promise<AuditEntryEvent | undefined> {
  const models = modelIndex(tracked);
  if (ref.kind === 'entry') {
    const [row] = await logRows(db, [ref.id]);
    return row === undefined ? undefined : logEvent(row, models);
  }
  const [row] = await bulkRows(db, [ref.id]);
  return row === undefined ? undefined : bulkEvent(row, models);
}
