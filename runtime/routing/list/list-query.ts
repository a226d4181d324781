/**
 * The SQL of one list page (docs/database.md "Compiled queries"): the
 * Kysely query of a list route's *shape* — its order, whether a cursor is
 * followed, which filters are given — built and compiled once per shape and
 * Kysely instance, then run with each request's values as parameters.
 *
 * A list has a finite set of shapes (each order × cursor or not × each
 * subset of its filters), so the cache per list is bounded by its plan; it is
 * capped all the same ({@link MAX_SHAPES}). A list narrowed by a handler's
 * `scope` is built and compiled per request — the scope is the handler's own
 * code and may put values or branches anywhere in the query — and then sent
 * to the pool as compiled queries are.
 */
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import { compiledQuery, executeBuilt } from '../../db/compiled-query.js';
import type { ListFilterPlan, ListPlan, ListSortPlan } from '../route-table.js';

/** Internal columns selected for the cursor, removed from the rows returned. */
export const SORT_TEXT = '__bindery_sort';
export const KEY_TEXT = '__bindery_key';

/** Shapes kept per list; past it, the oldest shape is compiled again when next used. */
const MAX_SHAPES = 256;

/** What makes the SQL of a page: everything but the values. */
export interface ListShape {
  /** The order's key and direction. */
  readonly key: ListSortPlan;
  readonly desc: boolean;
  /** The filters given, in plan order. */
  readonly filters: readonly ListFilterPlan[];
  /** A cursor is followed (rows after its keys). */
  readonly after: boolean;
}

/**
 * The values of a page's query, in the order its SQL takes them: each given
 * filter's value (as compared: a `prefix` as its escaped `like` pattern),
 * then the cursor's sort and key texts when one is followed, then the row
 * count to read.
 */
export type ListArgs = unknown[];

type Runner = (db: Kysely<any>, ...args: ListArgs) => Promise<Record<string, unknown>[]>;

/** Compiled queries per list plan, by shape text. */
const shapes = new WeakMap<ListPlan, Map<string, Runner>>();

/**
 * Read the rows of one page: `limit + 1` rows (the extra one tells a next
 * page exists), each with the internal {@link SORT_TEXT} and {@link KEY_TEXT}
 * columns (the exact text of its sort and primary key values, for the cursor).
 *
 * @param shapeText a text naming `shape` uniquely within the plan (see {@link shapeText}).
 * @param args the values, as {@link ListArgs} lays them out.
 * @param scope the handler's narrowing; with it, the query is built for this call only.
 */
export function readListRows(
  db: Kysely<any>, plan: ListPlan, shape: ListShape, shapeText: string, args: ListArgs,
  scope?: (query: SelectQueryBuilder<any, any, {}>) => SelectQueryBuilder<any, any, {}>,
): Promise<Record<string, unknown>[]> {
  // Not async: one promise less per page (each costs under the execution context's async hooks).
  if (scope !== undefined) return executeBuilt(db, buildListQuery(db, plan, shape, args, scope)) as Promise<Record<string, unknown>[]>;
  let byShape = shapes.get(plan);
  if (byShape === undefined) shapes.set(plan, byShape = new Map());
  let run = byShape.get(shapeText);
  if (run === undefined) {
    if (byShape.size >= MAX_SHAPES) byShape.delete(byShape.keys().next().value!);
    run = compiledQuery((d, ...a: ListArgs) => buildListQuery(d, plan, shape, a));
    byShape.set(shapeText, run);
  }
  return run(db, ...args);
}

/**
 * The text naming a shape within its plan: the order (`-created_at`), the
 * cursor flag and the given filters' positions in the plan.
 */
export function shapeText(sortText: string, after: boolean, filterIndexes: readonly number[]): string {
  return `${sortText}|${after ? 'c' : ''}|${filterIndexes.join(',')}`;
}

/** The value a filter's parameter takes: a `prefix` as its `like` pattern, a text `contains` as text, else as bound. */
export function filterArg(f: ListFilterPlan, value: unknown): unknown {
  if (f.op === 'prefix') return `${String(value).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  if (f.op === 'contains' && !f.array) return String(value);
  return value;
}

/** The page's query for `shape`, taking `args` as values (real ones, or compiledQuery's stand-ins). */
function buildListQuery(
  db: Kysely<any>, plan: ListPlan, shape: ListShape, args: ListArgs,
  scope?: (query: SelectQueryBuilder<any, any, {}>) => SelectQueryBuilder<any, any, {}>,
) {
  const table = plan.table;
  const column = (name: string) => sql.ref(`${table}.${name}`);
  let query: SelectQueryBuilder<any, any, {}> = db.selectFrom(table);
  if (scope !== undefined) query = scope(query);
  if (plan.softDelete) query = query.where(column('deleted_at'), 'is', null);
  let i = 0;
  for (const f of shape.filters) query = query.where(filterCondition(column(f.column), f, args[i++]));
  const { key, desc } = shape;
  if (shape.after) {
    const cmp = sql.raw(desc ? '<' : '>');
    const sortValue = args[i++];
    const keyValue = args[i++];
    query = query.where(sql<boolean>`(${column(key.column)}, ${column(plan.primaryKey)}) ${cmp} (cast(${sortValue} as ${sql.raw(key.sqlType)}), cast(${keyValue} as ${sql.raw(plan.primaryKeySqlType)}))`);
  }
  const direction = desc ? 'desc' : 'asc';
  return query
    .selectAll(table)
    .select([sql<string>`to_json(${column(key.column)}) #>> '{}'`.as(SORT_TEXT), sql<string>`to_json(${column(plan.primaryKey)}) #>> '{}'`.as(KEY_TEXT)])
    .orderBy(column(key.column), direction)
    .orderBy(column(plan.primaryKey), direction)
    .limit(args[i] as number);
}

/** The `where` condition of one filter parameter, its value as {@link filterArg} made it. */
function filterCondition(ref: ReturnType<typeof sql.ref>, f: ListFilterPlan, value: unknown) {
  const type = sql.raw(f.sqlType);
  switch (f.op) {
    case 'eq': return sql<boolean>`${ref} = cast(${value} as ${type})`;
    case 'prefix': return sql<boolean>`${ref} like ${value}`;
    case 'contains': return f.array ? sql<boolean>`${ref} @> array[cast(${value} as ${type})]` : sql<boolean>`strpos(${ref}, ${value}) > 0`;
    case 'gte': return sql<boolean>`${ref} >= cast(${value} as ${type})`;
    case 'gt': return sql<boolean>`${ref} > cast(${value} as ${type})`;
    case 'lte': return sql<boolean>`${ref} <= cast(${value} as ${type})`;
    case 'lt': return sql<boolean>`${ref} < cast(${value} as ${type})`;
  }
}
