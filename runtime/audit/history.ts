/**
 * The history of a row (docs/spec.md 6.1 rule 13, 4.2 "history"; docs/audit.md
 * "History"): its own entries and the bulk writes that touched it, newest
 * first, deleted rows included, paged by an opaque cursor.
 */
import { actorLabel } from './attribution.js';
import { AuditCursorError, AuditEngineError } from './errors.js';
import { writerFor } from './writers/for-engine.js';
import type { AuditWriter, HistoryCursor, HistoryRow } from './writers/writer.js';
import { decodeCursor, encodeCursor } from '../crypto/cursor-codec.js';
import type { AnyKysely } from '../db/any-kysely.js';
import { findEngine } from '../db/compiled-query.js';

/** One event of a history page. */
export interface HistoryEvent {
  /** When the entry was written, RFC 3339. */
  readonly at: string;
  /** `user:<id>`, `system`, `erased` or `<type>:<id>`. */
  readonly actor: string;
  readonly action: string;
  /** The request's method and path (no query string), the command or job name; null when unknown. */
  readonly via: string | null;
  /** Single-row entries: old and new values, each omitted when empty. */
  readonly changes?: { readonly old?: Record<string, unknown>; readonly new?: Record<string, unknown> };
  /** Application events: the details recorded with them. */
  readonly details?: Record<string, unknown>;
  /** Bulk entries: how many rows the write touched. */
  readonly rows?: number;
}

/** One page: `next` is present whenever the page is full. */
export interface HistoryPage {
  readonly events: HistoryEvent[];
  readonly next?: string;
}

/** Options of {@link readHistory}. */
export interface HistoryOptions {
  /** The `next` of the previous page. */
  readonly cursor?: string | undefined;
  /** Events per page, 1 to 1000 (default 50, the reference app's page). */
  readonly limit?: number;
}

/**
 * One page of the history of row `subjectId` of table `subjectType`.
 *
 * Order: newest first; at equal times single-row entries before bulk
 * entries, then by entry ID, newest first. The cursor names the last event
 * of a page; the next page starts after it, so entries written meanwhile
 * never shift a page.
 *
 * @param db the Kysely instance `connectDatabase` made, or a transaction of it (its engine chooses how the history is read).
 * @throws {AuditCursorError} (400) for a cursor the history did not make.
 * @throws {AuditEngineError} `BINDERY_AUDIT_ENGINE_UNSUPPORTED` for a Kysely instance made elsewhere, or an engine without an audit writer.
 */
export async function readHistory(
  db: AnyKysely,
  subjectType: string,
  subjectId: string,
  options: HistoryOptions = {},
): Promise<HistoryPage> {
  const engine = findEngine(db);
  if (engine === undefined)
    throw new AuditEngineError(
      'readHistory needs the Kysely instance connectDatabase made (ctx.services.db) or a transaction of it: the history is read the way its engine writes it (docs/audit.md "Engines").',
    );
  return historyPage(writerFor(engine), db, subjectType, subjectId, options);
}

/**
 * {@link readHistory} with the writer strategy already chosen (the audit
 * log's and its models' history). (framework-internal: not exported by an entry).
 * @throws {AuditCursorError} (400) for a cursor the history did not make.
 */
export async function historyPage(
  writer: AuditWriter,
  db: AnyKysely,
  subjectType: string,
  subjectId: string,
  options: HistoryOptions = {},
): Promise<HistoryPage> {
  const limit = options.limit ?? 50;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > 1000) throw new RangeError(`history limit must be from 1 to 1000, got ${limit}`);
  const cursor = options.cursor === undefined || options.cursor === '' ? undefined : fromCursor(options.cursor);
  const rows = await writer.history(db, subjectType, subjectId, limit, cursor);
  const events = rows.map(toEvent);
  const last = rows[rows.length - 1];
  return last !== undefined && rows.length === limit
    ? { events, next: toCursor({ at: last.at_text, kind: last.kind, id: last.id }) }
    : { events };
}

function toEvent(row: HistoryRow): HistoryEvent {
  const base = {
    at: row.occurred_at.toISOString(),
    actor: actorLabel(row.actor_type, row.actor_id),
    action: row.action,
    via: row.via_name,
  };
  if (row.kind === 1) return { ...base, rows: row.row_count ?? 0 };
  const changes: { old?: Record<string, unknown>; new?: Record<string, unknown> } = {};
  if (row.changes?.old && Object.keys(row.changes.old).length > 0) changes.old = row.changes.old;
  if (row.changes?.new && Object.keys(row.changes.new).length > 0) changes.new = row.changes.new;
  return row.properties === null ? { ...base, changes } : { ...base, changes, details: row.properties };
}

/** A cursor's text (framework-internal: the timeline of runtime/audit/reads pages the same way). */
export function toCursor(cursor: HistoryCursor): string {
  return encodeCursor([cursor.at, cursor.kind, cursor.id]);
}

const AT = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(\.\d{1,6})?(?:Z|[+-](\d\d)(?::(\d\d))?)$/;

/**
 * A timestamp as the history writes it (RFC 3339, up to six fractional
 * digits, an offset), with every part in range, so the engine's reading of
 * it back in the query cannot fail: year 1–9999, a real day of its month, hour 0–23, minute and second
 * 0–59, offset below 16 hours.
 */
function validAt(text: string): boolean {
  const m = AT.exec(text);
  if (m === null) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const offsetHours = m[8] === undefined ? 0 : Number(m[8]);
  const offsetMinutes = m[9] === undefined ? 0 : Number(m[9]);
  if (year < 1 || month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59 || offsetHours > 15 || offsetMinutes > 59)
    return false;
  return day <= new Date(Date.UTC(2000, month, 0)).getUTCDate() && (month !== 2 || day < 29 || isLeap(year));
}

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/**
 * The cursor's values, each checked (the history's cursors are not sealed: the check keeps the query's casts from failing).
 * @throws {AuditCursorError} (400) for a cursor the history did not make.
 */
export function fromCursor(text: string): HistoryCursor {
  const value = decodeCursor(text);
  if (value !== undefined && value.length === 3) {
    const [at, kind, id] = value;
    if (typeof at === 'string' && validAt(at) && (kind === 0 || kind === 1) && Number.isSafeInteger(id) && (id as number) > 0) {
      return { at, kind, id: id as number };
    }
  }
  throw new AuditCursorError();
}
