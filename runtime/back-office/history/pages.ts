/**
 * The data of the history pages (docs/back-office.md "History and revert"):
 * a row's timeline, the activity, and the confirm page of a revert, read
 * from the audit log (`readTimeline`, `readActivity`, `readEntry`) and the
 * revert's dry run. (framework-internal: history/index.ts renders them.)
 */
import type { AnyKysely } from '../../db/any-kysely.js';
import type { Translate } from '../../i18n/translator.js';
import type { AuditLog } from '../../audit/audit-log.js';
import { bulkRows, validEntryId } from '../../audit/reads/entry-rows.js';
import { diffOf, modelIndex } from '../../audit/reads/event.js';
import {
  readActivity,
  readEntry,
  readTimeline,
  type AuditEntryEvent,
  type RevertAuthorize,
  type TrackedResourceConfig,
} from '../../audit/index.js';
import { dryRevert, type RevertTarget } from './dry-run.js';
import { activityQuery, parseActivityQuery } from './filters.js';
import { diffRows, entryView, valueText, type DiffRow, type HistoryLinks } from './view-model.js';

/** The tracked configurations of the log's models (for the diffs' rules and the resource names). */
export function trackedOf(log: AuditLog): TrackedResourceConfig[] {
  return [...log.models.values()].map((m) => m.config as TrackedResourceConfig);
}

/**
 * What a row's timeline shows.
 * @param t the request's words (`backoffice.history.*`), English without `i18n()`.
 */
export async function timelineData(
  db: AnyKysely,
  log: AuditLog,
  links: HistoryLinks,
  row: {
    readonly resource: string;
    readonly label: string;
    readonly table: string;
    readonly id: string;
    readonly showHref: string | undefined;
    readonly gone: boolean;
  },
  cursor: string | undefined,
  t: Translate,
): Promise<Record<string, unknown>> {
  const page = await readTimeline(db, trackedOf(log), row.resource, row.id, { cursor, limit: 50 });
  const here = `${links.prefix}/${links.sectionOf(row.table) ?? row.table}/${encodeURIComponent(row.id)}/history`;
  return {
    title: t('backoffice.history.heading', { row: `${row.label} ${row.id}` }),
    heading: t('backoffice.history.heading', { row: `${row.label} ${row.id}` }),
    resourceName: row.label,
    subjectId: row.id,
    showHref: row.showHref,
    gone: row.gone,
    activityHref: `${links.prefix}/activity`,
    entries: page.events.map((e) => entryView(e, links)),
    nextHref: page.next === undefined ? undefined : `${here}?cursor=${encodeURIComponent(page.next)}`,
  };
}

/** What the activity page shows for `query` (the request's query string, parsed). */
export async function activityData(
  db: AnyKysely,
  log: AuditLog,
  links: HistoryLinks,
  query: Readonly<Record<string, unknown>>,
): Promise<Record<string, unknown>> {
  const parsed = parseActivityQuery(query);
  const list = await readActivity(db, trackedOf(log), parsed.filters, { page: parsed.page, perPage: parsed.perPage });
  const pages = Math.max(1, Math.ceil(list.total / list.perPage));
  const path = `${links.prefix}/activity`;
  const requestId = parsed.filters.requestId;
  return {
    title: 'Activity',
    activityPath: path,
    values: parsed.values,
    ignored: Object.values(parsed.ignored),
    total: list.total,
    page: list.page,
    pages,
    entries: list.events.map((e) => entryView(e, links)),
    undoHref:
      requestId !== undefined && list.total > 0 ? `${links.prefix}/audit/requests/${encodeURIComponent(requestId)}/revert` : undefined,
    prevHref: list.page > 1 ? `${path}${activityQuery(parsed.values, list.page - 1, list.perPage)}` : undefined,
    nextHref: list.page < pages ? `${path}${activityQuery(parsed.values, list.page + 1, list.perPage)}` : undefined,
  };
}

/** The URL of the app's revert route of `target` (the form posts there). */
export type RevertAction = (target: RevertTarget) => string;

/** How many rows of a bulk write the confirm page lists. */
const BULK_ROWS_SHOWN = 100;

/** The rows of a bulk write with each one's values before and after (the first {@link BULK_ROWS_SHOWN} the entry kept). */
async function bulkRowDiffs(
  db: AnyKysely,
  log: AuditLog,
  links: HistoryLinks,
  id: string,
): Promise<{ id: string; href: string | undefined; diff: DiffRow[] }[]> {
  const [bulk] = await bulkRows(db, [id]);
  if (bulk === undefined) return [];
  const model = modelIndex(trackedOf(log)).get(bulk.subjectType);
  const keys = [...new Set([...Object.keys(bulk.before ?? {}), ...Object.keys(bulk.after ?? {})])].slice(0, BULK_ROWS_SHOWN);
  const section = links.sectionOf(bulk.subjectType);
  return keys.map((key) => ({
    id: key,
    href: section === undefined ? undefined : `${links.prefix}/${section}/${encodeURIComponent(key)}/history`,
    diff: diffRows(diffOf(model, bulk.before?.[key] ?? null, bulk.after?.[key] ?? null)),
  }));
}

/** The entries a revert of `target` reverts, or undefined when there is none. */
async function targetEntries(db: AnyKysely, log: AuditLog, target: RevertTarget): Promise<AuditEntryEvent[] | undefined> {
  if (target.kind === 'request') {
    const list = await readActivity(db, trackedOf(log), { requestId: target.id }, { perPage: 200 });
    return list.total === 0 ? undefined : list.events;
  }
  if (!validEntryId(target.id)) return undefined;
  const event = await readEntry(db, { kind: target.kind, id: target.id }, trackedOf(log));
  return event === undefined ? undefined : [event];
}

/**
 * What the confirm page of a revert shows: the entries, and the dry run's
 * verdict — the form (`ok`), the three-way difference with a checkbox per
 * field (`conflict`), or why not.
 * @param t the request's words (`backoffice.history.*`), English without `i18n()`.
 * @returns undefined when the target names no entry (the page is then 404).
 */
export async function confirmData(
  db: AnyKysely,
  log: AuditLog,
  links: HistoryLinks,
  target: RevertTarget,
  action: string,
  authorize: RevertAuthorize,
  confirmed: readonly string[],
  t: Translate,
): Promise<{ data: Record<string, unknown>; status: number } | undefined> {
  const events = await targetEntries(db, log, target);
  if (events === undefined) return undefined;
  const entries = events.map((e) => entryView(e, links));
  const what = t(`backoffice.history.what_${target.kind}`, { id: target.id });
  const first = entries[0];
  const base = {
    bulkRows: target.kind === 'bulk' ? await bulkRowDiffs(db, log, links, target.id) : [],
    title: t('backoffice.history.revert_heading', { what }),
    heading:
      target.kind === 'request'
        ? t('backoffice.history.undo_heading', { id: target.id })
        : t('backoffice.history.revert_heading', { what }),
    entries,
    action,
    confirmed,
    rowHref: target.kind === 'request' ? undefined : first?.rowHref,
    activityHref: `${links.prefix}/activity`,
    button: t(
      target.kind === 'request'
        ? 'backoffice.history.undo_request'
        : target.kind === 'bulk'
          ? 'backoffice.history.revert_bulk'
          : 'backoffice.history.revert_entry',
    ),
    notes: [] as string[],
    reasons: [] as string[],
  };
  const dry = await dryRevert(log, target, { confirm: confirmed, authorize });
  switch (dry.outcome) {
    case 'ok':
      return {
        status: 200,
        data: {
          ...base,
          outcome: 'ok',
          writes: dry.result.entries.length,
          notes: dry.result.notes.map((n) => `${n.field} of ${n.resource} ${n.id} is left as it is (${n.reason})`),
        },
      };
    case 'conflict': {
      const conflicts = dry.conflicts.map((c) => ({
        resource: c.resource,
        id: c.id,
        reason: c.reason,
        fields: c.fields.map((f) => ({
          field: f.field,
          old: valueText(f.old),
          new: valueText(f.new),
          current: valueText(f.current),
          same: JSON.stringify(f.current) === JSON.stringify(f.old),
        })),
      }));
      // Every field already holds its old value (the entry was reverted, or undone by hand): nothing to do.
      if (conflicts.length > 0 && conflicts.every((c) => c.reason === undefined && c.fields.length > 0 && c.fields.every((f) => f.same)))
        return {
          status: 200,
          data: { ...base, outcome: 'refused', message: 'Nothing to revert: the row already holds the values from before the entry.' },
        };
      const confirmable = target.kind !== 'bulk' && conflicts.every((c) => c.reason === undefined && c.fields.length > 0);
      const rows = conflicts.map((c) => `${c.resource}/${c.id}`).join(', ');
      const message = confirmable
        ? `${conflicts.length === 1 ? 'The row' : 'The rows'} ${rows} changed since the entry: check each field below to write its old value over the value now.`
        : `${conflicts.length === 1 ? 'The row' : 'The rows'} ${rows} changed since, so this cannot be reverted as it is: ${dry.message.replace(/^Nothing was reverted: /, '')}`;
      return { status: 200, data: { ...base, outcome: 'conflict', message, conflicts, confirmable } };
    }
    case 'refused': {
      // Columns a re-insert may leave to their defaults (values the entry did not keep), when confirmed.
      const defaults = Object.entries(dry.reasons)
        .filter(([column, reason]) => reason.includes(`Confirm "${column}"`))
        .map(([column, reason]) => ({ column, reason }));
      if (defaults.length > 0 && defaults.length === Object.keys(dry.reasons).length)
        return {
          status: 200,
          data: {
            ...base,
            outcome: 'defaults',
            message:
              'The entry did not keep every value of the row: check each column below to insert the row without it (the column takes its default).',
            defaults,
          },
        };
      return { status: 200, data: { ...base, outcome: 'refused', message: dry.message, reasons: Object.values(dry.reasons) } };
    }
    case 'forbidden':
      return { status: 403, data: { ...base, outcome: 'forbidden', message: dry.message } };
    case 'not-found':
      return undefined;
  }
}
