/**
 * One page of a list route (docs/schema-language.md "List routes"): the
 * Kysely query built from the route's list plan and its bound input —
 * filters, keyset pagination on the sort key then the primary key, the
 * included relations — and the sealed cursor of the next page.
 *
 * Keyset pagination: a page asks for rows strictly after the last row of
 * the previous page in the order `(sort key, primary key)`, so rows inserted
 * or deleted meanwhile never shift a page: every row that exists for the
 * whole walk is seen exactly once, in order.
 */
import { createHash } from 'node:crypto';
import type { ListFilterPlan, RouteDefinition } from '../../routing/route-table.js';
import type { CursorSealer } from '../../crypto/cursor-codec.js';
import { ListCursorError } from './list-errors.js';
import { KEY_TEXT, pageArguments, readListRows, shapeText, SORT_TEXT } from './list-query.js';
import { neutralSortKey, readableSortKey } from './sort-key-text.js';
import type { AnyKysely } from '../../db/any-kysely.js';
import type { Policies } from '../../authorization/policies.js';
import { GUEST } from '../../context/request-auth.js';
import { runOffsetList } from './run-offset-list.js';
import { loadPageIncludes, withPolicyScope, type ListContext, type ListScope } from './list-scope.js';

export type { ListContext, ListScope } from './list-scope.js';

/** One page of a list route, as its handler returns it and clients receive it (rows serialized). */
export interface ListPage<Row> {
  /** The rows of the page, in order. */
  readonly data: Row[];
  /** The cursor of the next page, or null on the last page. */
  readonly next: string | null;
}

/**
 * Read one page of `route`'s list with the bound `input` (`limit`, `sort`,
 * `cursor`, the filter fields), narrowed by `scope` and by the scope of the
 * route's policy action for the caller (docs/authorization.md "Lists"); its
 * included relations narrowed by their own policies.
 *
 * @returns `{ data, next }`: rows as the table has them (each with its
 *   included relations under their names, null when absent), `next` sealed
 *   with the app key; for `limit` 0, `{ data: [], next: null }` without
 *   reading rows.
 * @throws {ListCursorError} (400, field `cursor`) for a cursor this list did
 *   not make, or made for another sort or other filters, or whose keys do not
 *   read back as the columns' types (made when they had other types).
 * @throws {Error} when the route is not a list route or the services lack `db` or `cursors`.
 * @throws {BinderyError} `BINDERY_SERVICE_NOT_SET_UP` when the route has a policy and the app no `authorization()`.
 */
export async function runList<Row>(
  ctx: ListContext,
  route: RouteDefinition,
  input: object,
  // biome-ignore lint/suspicious/noExplicitAny: the scope is the app's, typed by its own tables; the list runs on a table named at run time, so it takes the scope of any table map.
  scope?: ListScope<any, any>,
): Promise<ListPage<Row>> {
  const plan = route.list;
  if (plan === undefined) throw new Error(`runList: route "${route.name}" is not a list route (it has no list: in its schema).`);
  if (plan.paging === 'offset') return runOffsetList<Row>(ctx, route, input, scope) as unknown as Promise<ListPage<Row>>;
  const { db, cursors } = ctx.services as { db?: AnyKysely; cursors?: CursorSealer };
  if (db === undefined || cursors === undefined)
    throw new Error('runList: ctx.services needs db and cursors (both are set up by the app boot).');
  const values = input as Record<string, unknown>;
  const { limit, sortText, desc, key, filterIndexes, filters, args } = pageArguments(route.name, plan, values);
  const fingerprint = filters.length === 0 ? noFilterFingerprint(route.name) : filterFingerprint(route.name, filters, values);
  const cursor =
    typeof values.cursor === 'string' && values.cursor !== ''
      ? openCursor(cursors, values.cursor, route.name, fingerprint, sortText)
      : undefined;
  if (cursor !== undefined && !(readableSortKey(cursor.sort, key.columnType) && readableSortKey(cursor.key, plan.primaryKeyColumnType)))
    throw new ListCursorError('The cursor is not valid for this list any more; start again without it.');
  // limit=0 asks for an empty page: nothing to read (the cursor was still checked above).
  if (limit === 0) return { data: [], next: null };
  if (cursor !== undefined) args.push(neutralSortKey(cursor.sort, key.columnType), cursor.key);
  args.push(limit + 1);
  const shape = { key, desc, filters, after: cursor !== undefined };
  const policies = (ctx.services as { policies?: Policies }).policies;
  const narrowed = await withPolicyScope(route, policies, ctx.auth ?? GUEST, scope);
  const rows = await readListRows(db, plan, shape, shapeText(sortText, cursor !== undefined, filterIndexes), args, narrowed);

  const page = rows.length > limit ? rows.slice(0, limit) : rows;
  const last = page[page.length - 1];
  const next =
    rows.length > limit && last !== undefined ? cursors.seal([route.name, sortText, fingerprint, last[SORT_TEXT], last[KEY_TEXT]]) : null;
  // The last column added first: V8 then keeps the rows' fast property layout.
  for (const row of page) {
    delete row[KEY_TEXT];
    delete row[SORT_TEXT];
  }
  await loadPageIncludes(ctx, route, db, page);
  return { data: page as Row[], next };
}

/** The fingerprint of no filters, by route name (the same text {@link filterFingerprint} gives for none). */
const noFilters = new Map<string, string>();

function noFilterFingerprint(routeName: string): string {
  let text = noFilters.get(routeName);
  if (text === undefined) noFilters.set(routeName, (text = filterFingerprint(routeName, [], {})));
  return text;
}

/** The filter values a cursor is bound to: a cursor made under other filters is refused. */
function filterFingerprint(routeName: string, filters: readonly ListFilterPlan[], values: Record<string, unknown>): string {
  const parts = filters.map((f) => [f.key, values[f.key] instanceof Date ? (values[f.key] as Date).toISOString() : values[f.key]]);
  return createHash('sha256')
    .update(JSON.stringify([routeName, parts]))
    .digest('base64url')
    .slice(0, 16);
}

function openCursor(
  cursors: CursorSealer,
  text: string,
  routeName: string,
  fingerprint: string,
  sortText: string,
): { sort: string; key: string } {
  const values = cursors.open(text);
  if (values === undefined || values.length !== 5)
    throw new ListCursorError('The cursor is not valid; start again without it and follow the "next" values of the pages.');
  const [route, sort, filters, sortValue, key] = values;
  if (route !== routeName) throw new ListCursorError(`The cursor belongs to another list (${String(route)}); start again without it.`);
  if (sort !== sortText)
    throw new ListCursorError(
      `The cursor belongs to the order sort=${String(sort)}, not sort=${sortText}; keep the order while following "next", or start again without the cursor.`,
    );
  if (filters !== fingerprint)
    throw new ListCursorError(
      'The cursor belongs to other filters; keep the filters while following "next", or start again without the cursor.',
    );
  if (typeof sortValue !== 'string' || typeof key !== 'string')
    throw new ListCursorError('The cursor is not valid; start again without it.');
  return { sort: sortValue, key };
}
