/**
 * What the history pages show of an entry (docs/back-office.md "History and
 * revert"): the events of `readTimeline` and `readActivity` as rows of text
 * — who, when, what, through what — with the field-by-field diff (old →
 * new) as the log records it: redacted columns read `[redacted]` (the
 * reads already say so), hidden columns are absent (the reads leave them
 * out), and the links of the entry: its row's history, its request's
 * activity, its revert. (framework-internal: used by the history routes.)
 */
import type { AuditEntryEvent, FieldDiff } from '../../audit/index.js';

/** How a value of the diff reads: `[redacted]` as such, null as `—`, strings as they are, others as JSON. */
export function valueText(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** One field of a diff as the pages show it. */
export interface DiffRow {
  readonly field: string;
  readonly old: string;
  readonly new: string;
  /** Whether either side is `[redacted]` (the log does not keep the value). */
  readonly redacted: boolean;
}

/** One entry as the pages show it. */
export interface EntryView {
  /** `entry-17` or `bulk-5`: the element's ID. */
  readonly anchor: string;
  readonly kind: 'entry' | 'bulk';
  readonly id: string;
  /** RFC 3339, UTC. */
  readonly at: string;
  readonly actor: string;
  readonly action: string;
  /** `performed` of a revert's entry (`update`, `restore`, …), else undefined. */
  readonly performed: string | undefined;
  /** What a revert's entry reverted: `entry 17`, `bulk write 5`, `request c0ffee…`. */
  readonly reverted: string | undefined;
  readonly resource: string | null;
  readonly subjectId: string | null;
  /** `PATCH /api/documents/4`, `command audit:prune`, or `—`. */
  readonly via: string;
  readonly requestId: string | null;
  readonly diff: readonly DiffRow[];
  /** Bulk entries: the number of rows written and whether their values were kept. */
  readonly rows: number | undefined;
  readonly complete: boolean | undefined;
  /** Application events' details, as JSON (reverts' are shown as `reverted`/`performed`). */
  readonly details: string | undefined;
  /** The row's history page, when the entry's table is a section of the back office and names one row. */
  readonly rowHref: string | undefined;
  /** The activity filtered by the entry's request ID. */
  readonly requestHref: string | undefined;
  /** The confirm page of the entry's revert (bulk entries: of the bulk write). */
  readonly revertHref: string | undefined;
}

/** The URLs the views link to. */
export interface HistoryLinks {
  /** The back office's prefix, `/admin`. */
  readonly prefix: string;
  /** The section (URL segment) of a table, when the back office lists it. */
  sectionOf(table: string): string | undefined;
}

const WRITES = new Set(['created', 'updated', 'deleted', 'restored', 'force_deleted', 'reverted']);

/** The diff of an event as rows. */
export function diffRows(diff: readonly FieldDiff[]): DiffRow[] {
  return diff.map((d) => ({
    field: d.field,
    old: valueText(d.old),
    new: valueText(d.new),
    redacted: d.old === '[redacted]' || d.new === '[redacted]',
  }));
}

function revertedText(details: Record<string, unknown> | undefined): string | undefined {
  const r = details?.reverted as { kind?: unknown; id?: unknown; requestId?: unknown } | undefined;
  if (r === undefined || r === null || typeof r !== 'object') return undefined;
  if (typeof r.requestId === 'string') return `request ${r.requestId}`;
  if (r.kind === 'bulk') return `bulk write ${String(r.id)}`;
  return `entry ${String(r.id)}`;
}

/** The view of one event. */
export function entryView(event: AuditEntryEvent, links: HistoryLinks): EntryView {
  const { kind, id } = event.ref;
  const section = event.resource === null ? undefined : links.sectionOf(event.resource);
  const details = event.details;
  const isRevert = event.action === 'reverted';
  const { reverted: _r, performed: _p, ...ownDetails } = (isRevert ? details : undefined) ?? {};
  const shownDetails = isRevert ? (Object.keys(ownDetails).length > 0 ? ownDetails : undefined) : details;
  const revertable = kind === 'bulk' ? event.action !== 'upserted' : WRITES.has(event.action) && event.subjectId !== null;
  return {
    anchor: `${kind}-${id}`,
    kind,
    id,
    at: event.at,
    actor: event.actor.label,
    action: event.action,
    performed: isRevert && typeof details?.performed === 'string' ? details.performed : undefined,
    reverted: isRevert ? revertedText(details) : undefined,
    resource: event.resourceName ?? event.resource,
    subjectId: event.subjectId,
    via: event.via === null ? '—' : [event.via.kind === 'request' ? null : event.via.kind, event.via.name].filter(Boolean).join(' '),
    requestId: event.requestId,
    diff: diffRows(event.diff),
    rows: event.rows,
    complete: event.complete,
    details: shownDetails === undefined ? undefined : JSON.stringify(shownDetails),
    rowHref:
      section !== undefined && event.subjectId !== null
        ? `${links.prefix}/${section}/${encodeURIComponent(event.subjectId)}/history`
        : undefined,
    requestHref: event.requestId === null ? undefined : `${links.prefix}/activity?request=${encodeURIComponent(event.requestId)}`,
    revertHref: revertable
      ? kind === 'bulk'
        ? `${links.prefix}/audit/bulk/${encodeURIComponent(id)}/revert`
        : `${links.prefix}/audit/${encodeURIComponent(id)}/revert`
      : undefined,
  };
}
