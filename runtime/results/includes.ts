import { sql } from 'kysely';
import { isTaggedResult, RESULT } from './result.js';
import type { IncludePlan, RouteDefinition } from '../routing/route-table.js';
import type { AnyKysely } from '../db/any-kysely.js';
import { engineOf } from '../db/compiled-query.js';
import type { RowScope } from '../authorization/scopes.js';

/** Internal columns of a many-to-many read, removed from the related rows. */
const OWNER = '__bindery_owner';
const TO = '__bindery_to';
const JOIN = '__bindery_join';

/**
 * Add each path of `include` to every row (docs/schema-language.md
 * "Included paths and batch loading"), in batch — one statement per
 * relation and per join its computed fields read, whatever the number of
 * rows:
 * - belongs-to: `row[name]` becomes the related row, or null when the key
 *   is null or no row has it — or when the related resource's policy does
 *   not let the caller view it (docs/authorization.md "Included relations");
 * - `many`: the related rows through the join (`[]` when none), those the
 *   caller may not view left out, ordered by the related key;
 * - `count`: the number of join rows; `viewerIn`: whether one of them holds
 *   `viewer` (false for a guest, without a statement).
 * Paths of the related rows (`author.following`) are read after them, for
 * all of them at once.
 * @param rows rows as the table has them; changed in place.
 * @param scopeOf the caller's scope of a policy's `view` action, for relations whose resource has a policy; absent: none are narrowed.
 * @param viewer the signed-in user's ID (`ctx.auth.id`), or null for a guest.
 */
export async function loadIncludes(
  db: AnyKysely,
  include: readonly IncludePlan[],
  rows: readonly Record<string, unknown>[],
  scopeOf?: (policy: string) => Promise<RowScope>,
  viewer: string | null = null,
): Promise<void> {
  if (rows.length === 0) return;
  const joins = new Map<string, IncludePlan[]>();
  for (const inc of include) {
    if (inc.kind !== 'count' && inc.kind !== 'viewerIn') continue;
    const t = inc.through!;
    const key = `${t.table}\0${t.from}\0${t.to}\0${inc.column}`;
    joins.set(key, [...(joins.get(key) ?? []), inc]);
  }
  // The statements of one level are independent: they run together (on a
  // transaction's single connection, pg queues them in order).
  const tasks: Promise<void>[] = [...joins.values()].map((group) => loadComputed(db, group, rows, viewer));
  for (const inc of include) {
    if (inc.kind !== 'many' && inc.kind !== undefined) continue;
    tasks.push(
      (async () => {
        const related = inc.kind === 'many' ? await loadMany(db, inc, rows, scopeOf) : await loadOne(db, inc, rows, scopeOf);
        if (inc.include !== undefined && inc.include.length > 0) await loadIncludes(db, inc.include, related, scopeOf, viewer);
      })(),
    );
  }
  if (tasks.length === 1) await tasks[0];
  else await Promise.all(tasks);
}

/** The distinct non-null values of `column` in `rows`. */
function keysOf(rows: readonly Record<string, unknown>[], column: string): unknown[] {
  return [...new Set(rows.map((r) => r[column]).filter((v) => v !== null && v !== undefined))];
}

/** A belongs-to relation; returns the related rows read. */
async function loadOne(
  db: AnyKysely,
  inc: IncludePlan,
  rows: readonly Record<string, unknown>[],
  scopeOf?: (policy: string) => Promise<RowScope>,
): Promise<Record<string, unknown>[]> {
  const keys = keysOf(rows, inc.column);
  const found = new Map<string, Record<string, unknown>>();
  if (keys.length > 0) {
    let query = db.selectFrom(inc.table).selectAll().where(inc.key, 'in', keys);
    if (inc.policy !== undefined && scopeOf !== undefined) query = query.where(await scopeOf(inc.policy));
    const related = (await query.execute()) as Record<string, unknown>[];
    for (const r of related) found.set(String(r[inc.key]), r);
  }
  for (const row of rows)
    row[inc.name] = row[inc.column] === null || row[inc.column] === undefined ? null : (found.get(String(row[inc.column])) ?? null);
  return [...found.values()];
}

/** A many-to-many relation: the join and the related rows in one statement; returns the related rows read. */
async function loadMany(
  db: AnyKysely,
  inc: IncludePlan,
  rows: readonly Record<string, unknown>[],
  scopeOf?: (policy: string) => Promise<RowScope>,
): Promise<Record<string, unknown>[]> {
  const keys = keysOf(rows, inc.column);
  const byOwner = new Map<string, Record<string, unknown>[]>();
  const all: Record<string, unknown>[] = [];
  if (keys.length > 0) {
    const t = inc.through!;
    // The join's keys come from a derived table holding only them: a policy's
    // unqualified column names still name the related table's columns.
    const links = db
      .selectFrom(t.table)
      .select([sql.ref(t.from).as(OWNER), sql.ref(t.to).as(TO)])
      .where(t.from, 'in', keys);
    let query = db
      .selectFrom(inc.table)
      .innerJoin(links.as(JOIN), `${JOIN}.${TO}`, `${inc.table}.${inc.key}`)
      .selectAll(inc.table)
      .select(`${JOIN}.${OWNER}`)
      .orderBy(`${inc.table}.${inc.key}`);
    if (inc.policy !== undefined && scopeOf !== undefined) query = query.where(await scopeOf(inc.policy));
    for (const r of (await query.execute()) as Record<string, unknown>[]) {
      const owner = String(r[OWNER]);
      delete r[OWNER];
      const list = byOwner.get(owner);
      if (list === undefined) byOwner.set(owner, [r]);
      else list.push(r);
      all.push(r);
    }
  }
  for (const row of rows) {
    const key = row[inc.column];
    row[inc.name] = key === null || key === undefined ? [] : [...(byOwner.get(String(key)) ?? [])];
  }
  return all;
}

/** The computed fields of one join (counts and viewer booleans together): one statement, none for a guest's booleans alone. */
async function loadComputed(
  db: AnyKysely,
  group: readonly IncludePlan[],
  rows: readonly Record<string, unknown>[],
  viewer: string | null,
): Promise<void> {
  const first = group[0]!;
  const t = first.through!;
  const counts = group.some((i) => i.kind === 'count');
  const asks = viewer !== null && group.some((i) => i.kind === 'viewerIn');
  const keys = keysOf(rows, first.column);
  const found = new Map<string, { c: number; v: boolean }>();
  if (keys.length > 0 && (counts || asks)) {
    let query = db
      .selectFrom(t.table)
      .select(sql.ref(t.from).as('k'))
      .select(engineOf(db).sql.countAll().as('c'))
      .where(t.from, 'in', keys)
      .groupBy(t.from);
    // 1 when one of the join rows holds the viewer: `max` of a `case` is the same on every engine (`bool_or` is PostgreSQL's).
    if (asks) query = query.select(sql<number>`coalesce(max(case when ${sql.ref(t.to)} = ${viewer} then 1 else 0 end), 0)`.as('v'));
    if (!counts) query = query.where(t.to, '=', viewer);
    for (const r of (await query.execute()) as { k: unknown; c: number; v?: number }[])
      found.set(String(r.k), { c: Number(r.c), v: Number(r.v) === 1 });
  }
  for (const row of rows) {
    const hit = found.get(String(row[first.column]));
    for (const inc of group) row[inc.name] = inc.kind === 'count' ? (hit?.c ?? 0) : asks && hit?.v === true;
  }
}

/**
 * The output rows a handler's value carries — a row, a list of rows, or the
 * body of a `json`/`created` result — for {@link loadIncludes}. Other
 * results (redirects, pages, text) carry none.
 */
export function outputRows(value: unknown): Record<string, unknown>[] {
  const body = isTaggedResult(value)
    ? value[RESULT] === 'json' || value[RESULT] === 'created'
      ? (value as { body: unknown }).body
      : undefined
    : value;
  if (Array.isArray(body)) return body.filter((r): r is Record<string, unknown> => r !== null && typeof r === 'object');
  return body !== null && typeof body === 'object' ? [body as Record<string, unknown>] : [];
}

/** One row as JSON: the route's serializer, then each included path (relations through their own serializers; null stays null). */
export function rowSerializer(route: RouteDefinition): (row: Record<string, unknown>) => unknown {
  return includeSerializer(route.output!.serialize, route.include ?? []);
}

/**
 * A row serializer that adds the members of `include` to what `serialize`
 * gives: related rows through their serializers (nested paths too), counts
 * as numbers, viewer booleans as booleans.
 */
export function includeSerializer(
  serialize: (row: Record<string, unknown>) => unknown,
  include: readonly IncludePlan[],
): (row: Record<string, unknown>) => unknown {
  if (include.length === 0) return serialize;
  const members = include.map((inc): [string, (row: Record<string, unknown>) => unknown] => {
    const name = inc.name;
    if (inc.kind === 'count') return [name, (row) => (typeof row[name] === 'number' ? row[name] : 0)];
    if (inc.kind === 'viewerIn') return [name, (row) => row[name] === true];
    const nested = includeSerializer(inc.serialize!, inc.include ?? []);
    if (inc.kind === 'many')
      return [name, (row) => (Array.isArray(row[name]) ? (row[name] as Record<string, unknown>[]).map((r) => nested(r)) : [])];
    return [
      name,
      (row) => {
        const related = row[name] as Record<string, unknown> | null | undefined;
        return related === null || related === undefined ? null : nested(related);
      },
    ];
  });
  return (row) => {
    const json = serialize(row) as Record<string, unknown>;
    for (const [name, member] of members) json[name] = member(row);
    return json;
  };
}
