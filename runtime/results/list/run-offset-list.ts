/**
 * One page of an offset list (docs/schema-language.md "Offset lists"):
 * `limit` rows after `offset` rows, in the order of the sort key then the
 * primary key, with the total count of the rows the filters and scopes let
 * through — read in the page's own statement (`count(*) over ()`), and in a
 * second one only when the page holds no row.
 */
import type { RouteDefinition } from '../../routing/route-table.js';
import type { AnyKysely } from '../../db/any-kysely.js';
import type { Policies } from '../../authorization/policies.js';
import { GUEST } from '../../context/request-auth.js';
import { executeBuilt } from '../../db/compiled-query.js';
import { countListRows, pageArguments, readListRows, shapeText, TOTAL } from './list-query.js';
import { loadPageIncludes, withPolicyScope, type ListContext, type ListScope } from './list-scope.js';

/** One page of an offset list, as its handler returns it and clients receive it (rows serialized). */
export interface OffsetPage<Row> {
  /** The rows of the page, in order. */
  readonly data: Row[];
  /** How many rows match, over every page. */
  readonly total: number;
}

/**
 * Read one page of the offset list `route` (`list.paging: offset`) with the
 * bound `input` (`limit`, `offset`, `sort`, the filter fields), narrowed by
 * `scope` and the route's policy for the caller, its included paths loaded
 * in batch (`generated/lists.ts` calls it; `runList` too, for offset lists).
 * @returns `{ data, total }`: rows as the table has them (with their included paths).
 * @throws {Error} when the route is no offset list, the services lack `db` or the sort is not one of the list's.
 */
export async function runOffsetList<Row>(
  ctx: ListContext,
  route: RouteDefinition,
  input: object,
  // biome-ignore lint/suspicious/noExplicitAny: see runList.
  scope?: ListScope<any, any>,
): Promise<OffsetPage<Row>> {
  const plan = route.list;
  if (plan?.paging !== 'offset')
    throw new Error(`runOffsetList: route "${route.name}" is not an offset list (list.paging: offset in its schema).`);
  const { db } = ctx.services as { db?: AnyKysely };
  if (db === undefined) throw new Error('runList: ctx.services needs db (set up by the app boot).');
  const values = input as Record<string, unknown>;
  const { limit, sortText, desc, key, filterIndexes, filters, args } = pageArguments(route.name, plan, values);
  const offset = typeof values.offset === 'number' ? values.offset : 0;
  const policies = (ctx.services as { policies?: Policies }).policies;
  const narrowed = await withPolicyScope(route, policies, ctx.auth ?? GUEST, scope);
  let rows: Record<string, unknown>[] = [];
  if (limit > 0) {
    const shape = { key, desc, filters, after: false, offset: true };
    rows = await readListRows(db, plan, shape, shapeText(sortText, false, filterIndexes), [...args, limit, offset], narrowed);
  }
  let total: number;
  if (rows.length > 0) total = Number(rows[0]![TOTAL]);
  else {
    const base = db.selectFrom(plan.table);
    const counted = (await executeBuilt(db, countListRows(db, narrowed ? narrowed(base) : base, plan, filters, args))) as {
      total: number;
    }[];
    total = Number(counted[0]?.total ?? 0);
  }
  for (const row of rows) delete row[TOTAL];
  await loadPageIncludes(ctx, route, db, rows);
  return { data: rows as Row[], total };
}
