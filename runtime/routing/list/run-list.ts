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
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { ListFilterPlan, RouteDefinition } from '../route-table.js';
import { loadIncludes } from '../includes.js';
import type { CursorSealer } from '../../support/cursor-codec.js';
import { ListCursorError } from './list-errors.js';

/** One page of a list route, as its handler returns it and clients receive it (rows serialized). */
export interface ListPage<Row> {
  /** The rows of the page, in order. */
  readonly data: Row[];
  /** The cursor of the next page, or null on the last page. */
  readonly next: string | null;
}

/**
 * What {@link runList} needs of the request context: `services.db` (Kysely)
 * and `services.cursors` (the app's {@link CursorSealer}, added at boot).
 */
export interface ListContext {
  readonly services: object;
}

/**
 * Narrows the rows a list may show (e.g. to the signed-in user's): gets the
 * query before any selection, returns it with its own `where`s.
 * @example (q) => q.where('owner_id', '=', userId)
 */
export type ListScope<DB, TB extends keyof DB & string> = (query: SelectQueryBuilder<DB, TB, {}>) => SelectQueryBuilder<DB, TB, {}>;

/** Internal columns selected for the cursor, removed from the rows returned. */
const SORT_TEXT = '__bindery_sort';
const KEY_TEXT = '__bindery_key';

/**
 * Read one page of `route`'s list with the bound `input` (`limit`, `sort`,
 * `cursor`, the filter fields), narrowed by `scope`.
 *
 * @returns `{ data, next }`: rows as the table has them (each with its
 *   included relations under their names, null when absent), `next` sealed
 *   with the app key.
 * @throws {ListCursorError} (400, field `cursor`) for a cursor this list did
 *   not make, or made for another sort or other filters.
 * @throws {Error} when the route is not a list route or the services lack `db` or `cursors`.
 */
export async function runList<Row>(ctx: ListContext, route: RouteDefinition, input: object, scope?: ListScope<any, any>): Promise<ListPage<Row>> {
  const plan = route.list;
  if (plan === undefined) throw new Error(`runList: route "${route.name}" is not a list route (it has no list: in its schema).`);
  const { db, cursors } = ctx.services as { db?: Kysely<any>; cursors?: CursorSealer };
  if (db === undefined || cursors === undefined) throw new Error('runList: ctx.services needs db and cursors (both are set up by the app boot).');
  const values = input as Record<string, unknown>;
  const limit = values.limit as number;
  const sortText = values.sort as string;
  const desc = sortText.startsWith('-');
  const key = plan.sort.find((s) => s.name === (desc ? sortText.slice(1) : sortText));
  if (key === undefined) throw new Error(`runList: "${sortText}" is not a sort key of route "${route.name}".`);
  const filters = plan.filters.filter((f) => values[f.key] !== undefined && values[f.key] !== null);
  const fingerprint = filterFingerprint(route.name, filters, values);

  const table = plan.table;
  const column = (name: string) => sql.ref(`${table}.${name}`);
  let query: SelectQueryBuilder<any, any, {}> = db.selectFrom(table);
  if (scope !== undefined) query = scope(query);
  if (plan.softDelete) query = query.where(column('deleted_at'), 'is', null);
  for (const f of filters) query = query.where(filterCondition(column(f.column), f, values[f.key]));
  const cursor = typeof values.cursor === 'string' && values.cursor !== '' ? openCursor(cursors, values.cursor, route.name, fingerprint, sortText) : undefined;
  if (cursor !== undefined) {
    const cmp = sql.raw(desc ? '<' : '>');
    query = query.where(sql<boolean>`(${column(key.column)}, ${column(plan.primaryKey)}) ${cmp} (cast(${cursor.sort} as ${sql.raw(key.sqlType)}), cast(${cursor.key} as ${sql.raw(plan.primaryKeySqlType)}))`);
  }
  const direction = desc ? 'desc' : 'asc';
  const rows = await query
    .selectAll(table)
    .select([sql<string>`to_json(${column(key.column)}) #>> '{}'`.as(SORT_TEXT), sql<string>`to_json(${column(plan.primaryKey)}) #>> '{}'`.as(KEY_TEXT)])
    .orderBy(column(key.column), direction)
    .orderBy(column(plan.primaryKey), direction)
    .limit(limit + 1)
    .execute() as Record<string, unknown>[];

  const page = rows.length > limit ? rows.slice(0, limit) : rows;
  const last = page[page.length - 1];
  const next = rows.length > limit && last !== undefined ? cursors.seal([route.name, sortText, fingerprint, last[SORT_TEXT], last[KEY_TEXT]]) : null;
  for (const row of page) {
    delete row[SORT_TEXT];
    delete row[KEY_TEXT];
  }
  await loadIncludes(db, route.include ?? [], page);
  return { data: page as Row[], next };
}

/** The filter values a cursor is bound to: a cursor made under other filters is refused. */
function filterFingerprint(routeName: string, filters: readonly ListFilterPlan[], values: Record<string, unknown>): string {
  const parts = filters.map((f) => [f.key, values[f.key] instanceof Date ? (values[f.key] as Date).toISOString() : values[f.key]]);
  return createHash('sha256').update(JSON.stringify([routeName, parts])).digest('base64url').slice(0, 16);
}

function openCursor(cursors: CursorSealer, text: string, routeName: string, fingerprint: string, sortText: string): { sort: string; key: string } {
  const values = cursors.open(text);
  if (values === undefined || values.length !== 5) throw new ListCursorError('The cursor is not valid; start again without it and follow the "next" values of the pages.');
  const [route, sort, filters, sortValue, key] = values;
  if (route !== routeName) throw new ListCursorError(`The cursor belongs to another list (${String(route)}); start again without it.`);
  if (sort !== sortText) throw new ListCursorError(`The cursor belongs to the order sort=${String(sort)}, not sort=${sortText}; keep the order while following "next", or start again without the cursor.`);
  if (filters !== fingerprint) throw new ListCursorError('The cursor belongs to other filters; keep the filters while following "next", or start again without the cursor.');
  if (typeof sortValue !== 'string' || typeof key !== 'string') throw new ListCursorError('The cursor is not valid; start again without it.');
  return { sort: sortValue, key };
}

/** The `where` condition of one filter parameter. */
function filterCondition(ref: ReturnType<typeof sql.ref>, f: ListFilterPlan, value: unknown) {
  const type = sql.raw(f.sqlType);
  switch (f.op) {
    case 'eq': return sql<boolean>`${ref} = cast(${value} as ${type})`;
    case 'prefix': return sql<boolean>`${ref} like ${`${String(value).replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`;
    case 'contains': return f.array ? sql<boolean>`${ref} @> array[cast(${value} as ${type})]` : sql<boolean>`strpos(${ref}, ${String(value)}) > 0`;
    case 'gte': return sql<boolean>`${ref} >= cast(${value} as ${type})`;
    case 'gt': return sql<boolean>`${ref} > cast(${value} as ${type})`;
    case 'lte': return sql<boolean>`${ref} <= cast(${value} as ${type})`;
    case 'lt': return sql<boolean>`${ref} < cast(${value} as ${type})`;
  }
}
