/**
 * The log's rows as every engine reads them (docs/audit.md "Tables"): one
 * `audit_log` entry or `audit_bulk` entry by ID, and a bulk entry's keys,
 * with JSON columns parsed (MariaDB's JSON is text) and times as Dates.
 * Neutral Kysely: the same on PostgreSQL, MySQL and MariaDB.
 * (framework-internal: not exported by an entry).
 */
import type { AnyKysely } from '../../db/any-kysely.js';

/** One `audit_log` entry. */
export interface LogRow {
  readonly kind: 'entry';
  readonly id: string;
  readonly occurredAt: Date;
  readonly actorType: string;
  readonly actorId: string | null;
  readonly action: string;
  readonly subjectType: string | null;
  readonly subjectId: string | null;
  readonly changes: { old?: Record<string, unknown>; new?: Record<string, unknown> } | null;
  readonly properties: Record<string, unknown> | null;
  readonly viaKind: string | null;
  readonly viaName: string | null;
  readonly requestId: string | null;
}

/** One `audit_bulk` entry. */
export interface BulkRow {
  readonly kind: 'bulk';
  readonly id: string;
  readonly occurredAt: Date;
  readonly actorType: string;
  readonly actorId: string | null;
  readonly action: string;
  readonly subjectType: string;
  readonly rowCount: number;
  /** key → column → value, for up to `AUDIT_BULK_MAX_VALUES` rows. */
  readonly before: Record<string, Record<string, unknown>> | null;
  readonly after: Record<string, Record<string, unknown>> | null;
  readonly complete: boolean;
  readonly properties: Record<string, unknown> | null;
  readonly viaKind: string | null;
  readonly viaName: string | null;
  readonly requestId: string | null;
}

/** A JSON column as read: parsed (mysql2 parses MySQL's JSON columns; MariaDB's come as text). */
export function parsedJson<T>(value: unknown): T | null {
  if (value === null || value === undefined) return null;
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

function text(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value);
}

function time(value: unknown): Date {
  return value instanceof Date ? value : new Date(String(value));
}

/** `audit_log` rows as {@link LogRow}s. */
export function toLogRow(r: Record<string, unknown>): LogRow {
  return {
    kind: 'entry',
    id: String(r.id),
    occurredAt: time(r.occurred_at),
    actorType: String(r.actor_type),
    actorId: text(r.actor_id),
    action: String(r.action),
    subjectType: text(r.subject_type),
    subjectId: text(r.subject_id),
    changes: parsedJson(r.changes),
    properties: parsedJson(r.properties),
    viaKind: text(r.via_kind),
    viaName: text(r.via_name),
    requestId: text(r.request_id),
  };
}

/** `audit_bulk` rows as {@link BulkRow}s. */
export function toBulkRow(r: Record<string, unknown>): BulkRow {
  return {
    kind: 'bulk',
    id: String(r.id),
    occurredAt: time(r.occurred_at),
    actorType: String(r.actor_type),
    actorId: text(r.actor_id),
    action: String(r.action),
    subjectType: String(r.subject_type),
    rowCount: Number(r.row_count),
    before: parsedJson(r.values_before),
    after: parsedJson(r.values_after),
    complete: r.values_complete === true || Number(r.values_complete) === 1,
    properties: parsedJson(r.properties),
    viaKind: text(r.via_kind),
    viaName: text(r.via_name),
    requestId: text(r.request_id),
  };
}

const ID = /^[1-9]\d{0,17}$/;

/** Whether `id` can name an entry (a positive integer of up to 18 digits). */
export function validEntryId(id: string): boolean {
  return ID.test(id);
}

/** `audit_log` entries by ID (in no order); unknown IDs are left out. */
export async function logRows(db: AnyKysely, ids: readonly string[], options: { lock?: boolean } = {}): Promise<LogRow[]> {
  const valid = ids.filter(validEntryId);
  if (valid.length === 0) return [];
  let query = db.selectFrom('audit_log').selectAll().where('id', 'in', valid);
  if (options.lock) query = query.forUpdate();
  return (await query.execute()).map((r) => toLogRow(r as Record<string, unknown>));
}

/** `audit_bulk` entries by ID (in no order); unknown IDs are left out. */
export async function bulkRows(db: AnyKysely, ids: readonly string[], options: { lock?: boolean } = {}): Promise<BulkRow[]> {
  const valid = ids.filter(validEntryId);
  if (valid.length === 0) return [];
  let query = db.selectFrom('audit_bulk').selectAll().where('id', 'in', valid);
  if (options.lock) query = query.forUpdate();
  return (await query.execute()).map((r) => toBulkRow(r as Record<string, unknown>));
}

/** The keys of the rows a bulk entry touched, in key-text order. */
export async function bulkKeys(db: AnyKysely, bulkId: string): Promise<string[]> {
  const rows = await db.selectFrom('audit_bulk_items').select('subject_id').where('bulk_id', '=', bulkId).orderBy('subject_id').execute();
  return rows.map((r) => String((r as Record<string, unknown>).subject_id));
}
