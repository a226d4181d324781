/**
 * The SQL of one list page (docs/database.md "Compiled queries"): the
 * Kysely query of a list route's *shape* — its order, whether a cursor is
 * followed, which filters are given — built and compiled once per shape and
 * Kysely instance, then run with each request's values as parameters. What
 * differs between engines (casts to a column type, the exact text of a sort
 * key, counts, containment) comes from the engine's SQL pieces
 * (docs/database.md "Lists and cursors").
 *
 * A list has a finite set of shapes (each order × cursor or not × each
 * subset of its filters), so the cache per list is bounded by its plan; it is
 * capped all the same ({@link MAX_SHAPES}). A list narrowed by a handler's
 * `scope` runs the scope per request and compiles only its small query: the
 * scope is the handler's code, its values and branches are its own.
 */
import { createQueryId, sql, type CompiledQuery, type SelectQueryBuilder } from 'kysely';
import { compiledQuery, engineOf, executeBuilt } from '../../db/compiled-query.js';
import type { EngineSql } from '../../db/engine.js';
import type { ListFilterPlan, ListPlan, ListSortPlan } from '../../routing/route-table.js';
import type { AnyKysely } from '../../db/any-kysely.js';

/** Internal columns selected for the cursor, removed from the rows returned. */
export const SORT_TEXT = '__bindery_sort';
export const KEY_TEXT = '__bindery_key';
/** Internal column of an offset page: the count of every matching row. */
export const TOTAL = '__bindery_total';

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
  /** An offset page: `limit` then `offset` are the last values, and each row carries the {@link TOTAL}. */
  readonly offset?: boolean;
}

/**
 * The values of a page's query, in the order its SQL takes them: each given
 * filter's value (as compared: a `prefix` as its escaped `like` pattern),
 * then the cursor's sort and key texts when one is followed, then the row
 * count to read.
 */
export type ListArgs = unknown[];

type Runner = (db: AnyKysely, ...args: ListArgs) => Promise<Record<string, unknown>[]>;

/** Compiled queries per list plan, by shape text. */
const shapes = new WeakMap<ListPlan, Map<string, Runner>>();

/** A handler's narrowing of a list: the table's query, with its own `where`s. */
// biome-ignore lint/suspicious/noExplicitAny: the table is named at run time, so Kysely cannot type its columns.
// biome-ignore lint/complexity/noBannedTypes: `{}` is Kysely's own type for a query that has selected nothing yet.
export type Scope = (query: SelectQueryBuilder<any, any, {}>) => SelectQueryBuilder<any, any, {}>;

/**
 * Read the rows of one page: `limit + 1` rows (the extra one tells a next
 * page exists), each with the internal {@link SORT_TEXT} and {@link KEY_TEXT}
 * columns (the exact text of its sort and primary key values, for the cursor).
 *
 * @param shapeText a text naming `shape` uniquely within the plan (see {@link shapeText}).
 * @param args the values, as {@link ListArgs} lays them out.
 * @param scope the handler's narrowing (see {@link readScopedRows}).
 */
export function readListRows(
  db: AnyKysely,
  plan: ListPlan,
  shape: ListShape,
  shapeText: string,
  args: ListArgs,
  scope?: Scope,
): Promise<Record<string, unknown>[]> {
  // Not async: one promise less per page (each costs under the execution context's async hooks).
  if (scope !== undefined) return readScopedRows(db, plan, shape, shapeText, args, scope);
  const byShape = cacheOf(shapes, plan);
  let run = byShape.get(shapeText);
  if (run === undefined) {
    run = compiledQuery((d, ...a: ListArgs) => buildListQuery(d.selectFrom(plan.table), engineOf(d).sql, plan, shape, a));
    remember(byShape, shapeText, run);
  }
  return run(db, ...args);
}

/** A stand-in for the `index`-th list argument while a scoped query is compiled. */
class Slot {
  constructor(readonly index: number) {}
}

/** The SQL of a scoped shape: the scope's parameters come first, then the list's arguments; null when they do not. */
type ScopedPlan = { readonly sql: string; readonly query: CompiledQuery['query'] } | null;

/** Scoped plans per list plan, by shape text and the scope's own SQL. */
const scopedShapes = new WeakMap<ListPlan, Map<string, ScopedPlan>>();

/**
 * A scoped page: the scope is the handler's code, run per request on the
 * bare table query, and only that small query is compiled per request. Its
 * SQL text (values are parameters) joined to the shape names the full
 * query, compiled once with the scope's parameters first and the list's
 * arguments after them. A scope whose parameters do not all come first (an
 * `orderBy` or `limit` of its own with a value) is built whole per request;
 * so is every scoped page on a Kysely instance with plugins.
 */
function readScopedRows(
  db: AnyKysely,
  plan: ListPlan,
  shape: ListShape,
  shapeText: string,
  args: ListArgs,
  scope: Scope,
): Promise<Record<string, unknown>[]> {
  const base = scope(db.selectFrom(plan.table));
  const pieces = engineOf(db).sql;
  if (db.getExecutor().plugins.length > 0)
    return executeBuilt(db, buildListQuery(base, pieces, plan, shape, args)) as Promise<Record<string, unknown>[]>;
  const head = base.compile();
  const byShape = cacheOf(scopedShapes, plan);
  const key = `${shapeText}\n${head.sql}`;
  let scoped = byShape.get(key);
  if (scoped === undefined) {
    const full = buildListQuery(
      base,
      pieces,
      plan,
      shape,
      args.map((_, i) => new Slot(i)),
    ).compile();
    const n = head.parameters.length;
    const inOrder =
      full.parameters.length === n + args.length &&
      full.parameters.every((p, i) => (i < n ? p === head.parameters[i] : p instanceof Slot && p.index === i - n));
    scoped = inOrder ? { sql: full.sql, query: full.query } : null;
    remember(byShape, key, scoped);
  }
  if (scoped === null) return executeBuilt(db, buildListQuery(base, pieces, plan, shape, args)) as Promise<Record<string, unknown>[]>;
  const compiled: CompiledQuery<Record<string, unknown>> = {
    sql: scoped.sql,
    query: scoped.query,
    queryId: createQueryId(),
    parameters: [...head.parameters, ...args],
  };
  return executeBuilt(db, { compile: () => compiled });
}

function cacheOf<V>(caches: WeakMap<ListPlan, Map<string, V>>, plan: ListPlan): Map<string, V> {
  let cache = caches.get(plan);
  if (cache === undefined) caches.set(plan, (cache = new Map()));
  return cache;
}

/** Keep `value` under `key`, dropping the oldest entry past {@link MAX_SHAPES}. */
function remember<V>(cache: Map<string, V>, key: string, value: V): void {
  if (cache.size >= MAX_SHAPES) cache.delete(cache.keys().next().value!);
  cache.set(key, value);
}

/**
 * The text naming a shape within its plan: the order (`-created_at`), the
 * cursor flag and the given filters' positions in the plan.
 */
export function shapeText(sortText: string, after: boolean, filterIndexes: readonly number[]): string {
  return `${sortText}|${after ? 'c' : ''}|${filterIndexes.join(',')}`;
}

/** What a page request asks of a list, read from its bound input: see {@link pageArguments}. */
export interface PageArguments {
  readonly limit: number;
  /** The sort as asked (`-created_at`). */
  readonly sortText: string;
  readonly desc: boolean;
  readonly key: ListSortPlan;
  /** The indexes (in the plan) of the filters given, their plans, and their SQL arguments in that order. */
  readonly filterIndexes: number[];
  readonly filters: ListFilterPlan[];
  readonly args: unknown[];
}

/**
 * The limit, sort and given filters of a page request (cursor and offset
 * lists alike), from the route's bound input.
 * @throws {Error} when the sort is not one of the list's (the validator lets none through).
 */
export function pageArguments(routeName: string, plan: ListPlan, values: Record<string, unknown>): PageArguments {
  const sortText = values.sort as string;
  const desc = sortText.startsWith('-');
  const key = plan.sort.find((s) => s.name === (desc ? sortText.slice(1) : sortText));
  if (key === undefined) throw new Error(`runList: "${sortText}" is not a sort key of route "${routeName}".`);
  const filterIndexes: number[] = [];
  const filters: ListFilterPlan[] = [];
  const args: unknown[] = [];
  plan.filters.forEach((f, i) => {
    const value = values[f.key];
    if (value === undefined || value === null) return;
    filterIndexes.push(i);
    filters.push(f);
    args.push(filterArg(f, value));
  });
  return { limit: values.limit as number, sortText, desc, key, filterIndexes, filters, args };
}

/** The value a filter's parameter takes: a `prefix` as its `like` pattern, a text `contains` as text, else as bound. */
export function filterArg(f: ListFilterPlan, value: unknown): unknown {
  if (f.op === 'prefix') return `${String(value).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  if (f.op === 'contains' && !f.array) return String(value);
  return value;
}

/**
 * The page's query for `shape` on `base` (the table's query, scoped or not),
 * in the SQL of the engine `pieces` come from, taking `args` as values (real
 * ones, or stand-ins).
 */
function buildListQuery(
  // biome-ignore lint/suspicious/noExplicitAny: the table is named at run time, so Kysely cannot type its columns.
  // biome-ignore lint/complexity/noBannedTypes: `{}` is Kysely's own type for a query that has selected nothing yet.
  base: SelectQueryBuilder<any, any, {}>,
  pieces: EngineSql,
  plan: ListPlan,
  shape: ListShape,
  args: ListArgs,
) {
  const table = plan.table;
  const column = (name: string) => sql.ref(`${table}.${name}`);
  let query = base;
  if (plan.softDelete) query = query.where(column('deleted_at'), 'is', null);
  let i = 0;
  for (const f of shape.filters) query = query.where(filterWhere(pieces, table, f, args[i++]));
  const { key, desc } = shape;
  if (shape.offset === true) {
    const direction = desc ? 'desc' : 'asc';
    return query
      .selectAll(table)
      .select(sql<number>`count(*) over ()`.as(TOTAL))
      .orderBy(column(key.column), direction)
      .orderBy(column(plan.primaryKey), direction)
      .limit(args[i] as number)
      .offset(args[i + 1] as number);
  }
  if (shape.after) {
    const cmp = sql.raw(desc ? '<' : '>');
    const sortValue = args[i++];
    const keyValue = args[i++];
    query = query.where(
      sql<boolean>`(${column(key.column)}, ${column(plan.primaryKey)}) ${cmp} (${pieces.cast(sortValue, key.columnType)}, ${pieces.cast(keyValue, plan.primaryKeyColumnType)})`,
    );
  }
  const direction = desc ? 'desc' : 'asc';
  return query
    .selectAll(table)
    .select([
      pieces.sortKeyText(column(key.column), key.columnType).as(SORT_TEXT),
      pieces.sortKeyText(column(plan.primaryKey), plan.primaryKeyColumnType).as(KEY_TEXT),
    ])
    .orderBy(column(key.column), direction)
    .orderBy(column(plan.primaryKey), direction)
    .limit(args[i] as number);
}

/**
 * The rows matching every filter of `filters` with their `values` (as
 * {@link filterArg} made them), on `base` (the table's query of `db`): what
 * an offset list counts when its page holds no row.
 */
export function countListRows(
  db: AnyKysely,
  base: ReturnType<Scope>,
  plan: ListPlan,
  filters: readonly ListFilterPlan[],
  values: ListArgs,
) {
  const pieces = engineOf(db).sql;
  let query = base;
  if (plan.softDelete) query = query.where(sql.ref(`${plan.table}.deleted_at`), 'is', null);
  filters.forEach((f, i) => {
    query = query.where(filterWhere(pieces, plan.table, f, values[i]));
  });
  return query.select(pieces.countAll().as('total'));
}

/** Internal alias of a related table (and of a join) in a filter's subquery. */
const RELATED = '__bindery_r';
const LINK = '__bindery_j';

/** One filter's condition on the rows of `table`: on its own column, or through a relation (an `exists` subquery). */
function filterWhere(pieces: EngineSql, table: string, f: ListFilterPlan, value: unknown) {
  const t = f.through;
  if (t === undefined) return filterCondition(pieces, sql.ref(`${table}.${f.column}`), f, value);
  const condition = filterCondition(pieces, sql.ref(`${RELATED}.${f.column}`), f, value);
  const related = sql`${sql.table(t.table)} as ${sql.id(RELATED)}`;
  const owner = sql.ref(`${table}.${t.column}`);
  if (t.join === undefined)
    return sql<boolean>`exists (select 1 from ${related} where ${sql.ref(`${RELATED}.${t.key}`)} = ${owner} and ${condition})`;
  const j = t.join;
  return sql<boolean>`exists (select 1 from ${sql.table(j.table)} as ${sql.id(LINK)} join ${related} on ${sql.ref(`${RELATED}.${t.key}`)} = ${sql.ref(`${LINK}.${j.to}`)} where ${sql.ref(`${LINK}.${j.from}`)} = ${owner} and ${condition})`;
}

/** The `where` condition of one filter parameter, its value as {@link filterArg} made it. */
function filterCondition(pieces: EngineSql, ref: ReturnType<typeof sql.ref>, f: ListFilterPlan, value: unknown) {
  switch (f.op) {
    case 'eq':
      return sql<boolean>`${ref} = ${pieces.cast(value, f.columnType)}`;
    case 'prefix':
      return sql<boolean>`${ref} like ${value}`;
    case 'contains':
      return f.array ? pieces.listContains(ref, value, f.columnType) : pieces.textContains(ref, value);
    case 'gte':
      return sql<boolean>`${ref} >= ${pieces.cast(value, f.columnType)}`;
    case 'gt':
      return sql<boolean>`${ref} > ${pieces.cast(value, f.columnType)}`;
    case 'lte':
      return sql<boolean>`${ref} <= ${pieces.cast(value, f.columnType)}`;
    case 'lt':
      return sql<boolean>`${ref} < ${pieces.cast(value, f.columnType)}`;
  }
}
