/**
 * An entry as the back office reads it (docs/audit.md "Timeline, activity,
 * entry"): a reference to revert it by, who, what, through what, and the
 * field-by-field difference — redacted columns as `[redacted]`, hidden
 * columns left out. (framework-internal: the types are exported by runtime/audit).
 */
import { actorLabel } from '../attribution.js';
import { resolveModel, type ResolvedModel, type TrackedResourceConfig } from '../tracked-config.js';
import type { EntryRef } from '../revert/errors.js';
import type { BulkRow, LogRow } from './entry-rows.js';

/** One field of a diff: its value before and after the write (null when the row did not exist on that side). */
export interface FieldDiff {
  readonly field: string;
  readonly old: unknown;
  readonly new: unknown;
}

/** One entry of the log, single-row or bulk. */
export interface AuditEntryEvent {
  /** What to revert it by (`revertEntry`, `revertBulk`) and to read it again by (`readEntry`). */
  readonly ref: EntryRef;
  /** When it was written, RFC 3339 (UTC, milliseconds). */
  readonly at: string;
  /** Who: `label` reads `user:4`, `system`, `erased`; `id` null for `system` and `erased`. */
  readonly actor: { readonly label: string; readonly type: string; readonly id: string | null };
  /** `created`, `updated`, `deleted`, `restored`, `force_deleted`, `upserted`, `reverted`, or an application event's. */
  readonly action: string;
  /** The table (the entry's subject type); null for an application event without a subject. */
  readonly resource: string | null;
  /** The tracked resource's name (`Document`), when the table is tracked. */
  readonly resourceName: string | null;
  /** The row's key (single-row entries; for a bulk entry in a row's timeline, that row's). */
  readonly subjectId: string | null;
  /** Through what: `request` and `PATCH /api/documents/4`, `command` and its name, a job; null when unknown. */
  readonly via: { readonly kind: string | null; readonly name: string | null } | null;
  readonly requestId: string | null;
  /** Field by field: the recorded values (bulk: this row's, when the entry kept them; else empty). */
  readonly diff: readonly FieldDiff[];
  /** Application events' details, and a revert's (`{ reverted: {...}, performed }`). */
  readonly details?: Record<string, unknown>;
  /** Bulk entries: how many rows the write touched. */
  readonly rows?: number;
  /** Bulk entries: whether the values of every row were kept. */
  readonly complete?: boolean;
}

/** Tracked configurations by table and by resource name. */
export type TrackedConfigs = TrackedResourceConfig | readonly TrackedResourceConfig[] | Readonly<Record<string, TrackedResourceConfig>>;

/** The resolved models of `tracked`, keyed by table and by resource name. */
export function modelIndex(tracked: TrackedConfigs | undefined): ReadonlyMap<string, ResolvedModel> {
  const list: TrackedResourceConfig[] =
    tracked === undefined
      ? []
      : Array.isArray(tracked)
        ? [...tracked]
        : 'table' in tracked && typeof tracked.table === 'string'
          ? [tracked as TrackedResourceConfig]
          : Object.values(tracked as Record<string, TrackedResourceConfig>);
  const index = new Map<string, ResolvedModel>();
  for (const config of list) {
    const model = resolveModel(config);
    index.set(config.table, model);
    index.set(config.resource, model);
  }
  return index;
}

/** The diff of old and new values by the rules of `model` (none known: every field as recorded). */
export function diffOf(
  model: ResolvedModel | undefined,
  old: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): FieldDiff[] {
  const fields = new Set([...Object.keys(old ?? {}), ...Object.keys(after ?? {})]);
  const hidden = new Set(model?.config.hidden ?? []);
  const order = model?.columns ?? [];
  const sorted = [...fields].sort((a, b) => rank(order, a) - rank(order, b) || (a < b ? -1 : a > b ? 1 : 0));
  return sorted.filter((f) => !hidden.has(f)).map((field) => ({ field, old: old?.[field] ?? null, new: after?.[field] ?? null }));
}

function rank(order: readonly string[], field: string): number {
  const i = order.indexOf(field);
  return i < 0 ? order.length : i;
}

function base(row: LogRow | BulkRow, models: ReadonlyMap<string, ResolvedModel>) {
  const model = row.subjectType === null ? undefined : models.get(row.subjectType);
  return {
    model,
    event: {
      ref: { kind: row.kind, id: row.id },
      at: row.occurredAt.toISOString(),
      actor: { label: actorLabel(row.actorType, row.actorId), type: row.actorType, id: row.actorId },
      action: row.action,
      resource: row.subjectType,
      resourceName: model?.config.resource ?? null,
      via: row.viaKind === null && row.viaName === null ? null : { kind: row.viaKind, name: row.viaName },
      requestId: row.requestId,
    },
  };
}

/** A single-row entry as an event. */
export function logEvent(row: LogRow, models: ReadonlyMap<string, ResolvedModel>): AuditEntryEvent {
  const { model, event } = base(row, models);
  const diff = diffOf(model, row.changes?.old ?? null, row.changes?.new ?? null);
  return { ...event, subjectId: row.subjectId, diff, ...(row.properties === null ? {} : { details: row.properties }) };
}

/** A bulk entry as an event; with `subjectId`, the diff is that row's (when the entry kept its values). */
export function bulkEvent(row: BulkRow, models: ReadonlyMap<string, ResolvedModel>, subjectId?: string): AuditEntryEvent {
  const { model, event } = base(row, models);
  const diff = subjectId === undefined ? [] : diffOf(model, row.before?.[subjectId] ?? null, row.after?.[subjectId] ?? null);
  return {
    ...event,
    subjectId: subjectId ?? null,
    diff,
    ...(row.properties === null ? {} : { details: row.properties }),
    rows: row.rowCount,
    complete: row.complete,
  };
}
