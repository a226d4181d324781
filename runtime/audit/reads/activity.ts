/**
 * Every entry of the log, single-row and bulk, filtered and paged by offset
 * (docs/audit.md "Timeline, activity, entry"). Engine-neutral Kysely: one
 * `union all` of the two tables, newest first.
 */
import { sql } from 'kysely';
import type { AnyKysely } from '../../db/any-kysely.js';
import { bulkRows, logRows } from './entry-rows.js';
import { bulkEvent, logEvent, modelIndex, type AuditEntryEvent, type TrackedConfigs } from './event.js';

/** Which entries {@link readActivity} lists; every filter given must hold. */
export interface ActivityFilters {
  /** `user:4`, `system`, `erased`, `<type>:<id>`, or a type alone (`user`). */
  readonly actor?: string | undefined;
  /** A table (`documents`) or tracked resource name (`Document`). */
  readonly resource?: string | undefined;
  readonly action?: string | undefined;
  readonly requestId?: string | undefined;
  /** Entries written at or after this time. */
  readonly from?: Date | undefined;
  /** Entries written before this time. */
  readonly to?: Date | undefined;
}

/** Which page: `page` from 1 (default 1), `perPage` 1–200 (default 50). */
export interface ActivityPageOptions {
  readonly page?: number;
  readonly perPage?: number;
}

/** One page of the activity, with the total of entries matching. */
export interface ActivityPage {
  readonly events: AuditEntryEvent[];
  readonly total: number;
  readonly page: number;
  readonly perPage: number;
}

/**
 * A page of every entry (single-row and bulk) matching `filters`, newest
 * first (at equal times single-row entries first, then the higher ID).
 * @param db `ctx.services.db` or a transaction of it.
 * @param tracked the tracked configurations, for the diffs and for resource names.
 * @throws {RangeError} for a page below 1 or a `perPage` outside 1–200.
 */
export async function readActivity(
  db: AnyKysely,
  tracked: TrackedConfigs,
  filters: ActivityFilters = {},
  options: ActivityPageOptions = {},
): Promise<ActivityPage> {
  const page = options.page ?? 1;
  const perPage = options.perPage ?? 50;
  if (!Number.isSafeInteger(page) || page < 1) throw new RangeError(`page must be an integer from 1, got ${page}`);
  if (!Number.isSafeInteger(perPage) || perPage < 1 || perPage > 200) throw new RangeError(`perPage must be from 1 to 200, got ${perPage}`);
  const models = modelIndex(tracked);
  const table = filters.resource === undefined ? undefined : (models.get(filters.resource)?.table ?? filters.resource);
  // biome-ignore lint/suspicious/noExplicitAny: the same filters apply to the selects of both log tables.
  const filtered = (query: any): any => {
    let q = query;
    if (filters.actor !== undefined) {
      const colon = filters.actor.indexOf(':');
      const type = colon < 0 ? filters.actor : filters.actor.slice(0, colon);
      q = q.where('actor_type', '=', type);
      if (colon >= 0) q = q.where('actor_id', '=', filters.actor.slice(colon + 1));
    }
    if (table !== undefined) q = q.where('subject_type', '=', table);
    if (filters.action !== undefined) q = q.where('action', '=', filters.action);
    if (filters.requestId !== undefined) q = q.where('request_id', '=', filters.requestId);
    if (filters.from !== undefined) q = q.where('occurred_at', '>=', filters.from);
    if (filters.to !== undefined) q = q.where('occurred_at', '<', filters.to);
    return q;
  };
  const entries = filtered(db.selectFrom('audit_log').select([sql<number>`0`.as('kind'), 'id', 'occurred_at']));
  const bulks = filtered(db.selectFrom('audit_bulk').select([sql<number>`1`.as('kind'), 'id', 'occurred_at']));
  const ids = (await entries
    .unionAll(bulks)
    .orderBy('occurred_at', 'desc')
    .orderBy('kind')
    .orderBy('id', 'desc')
    .limit(perPage)
    .offset((page - 1) * perPage)
    .execute()) as { kind: unknown; id: unknown }[];
  const count = async (query: unknown) =>
    // biome-ignore lint/suspicious/noExplicitAny: see `filtered`.
    Number(((await (query as any).clearSelect().select(sql<number>`count(*)`.as('n')).executeTakeFirst()) as { n: unknown }).n);
  const total = (await count(entries)) + (await count(bulks));
  const log = new Map(
    (
      await logRows(
        db,
        ids.filter((r) => Number(r.kind) === 0).map((r) => String(r.id)),
      )
    ).map((r) => [r.id, r]),
  );
  const bulk = new Map(
    (
      await bulkRows(
        db,
        ids.filter((r) => Number(r.kind) === 1).map((r) => String(r.id)),
      )
    ).map((r) => [r.id, r]),
  );
  const events: AuditEntryEvent[] = [];
  for (const r of ids) {
    const id = String(r.id);
    const found = Number(r.kind) === 0 ? log.get(id) : bulk.get(id);
    if (found?.kind === 'entry') events.push(logEvent(found, models));
    else if (found?.kind === 'bulk') events.push(bulkEvent(found, models));
  }
  return { events, total, page, perPage };
}
