import { isTaggedResult, RESULT } from './result.js';
import type { IncludePlan, RouteDefinition } from '../routing/route-table.js';
import type { AnyKysely } from '../db/any-kysely.js';
import type { RowScope } from '../authorization/scopes.js';

/**
 * Add each relation of `include` to every row: `row[name]` becomes the
 * related row, or null when the key is null or no row has it — or when the
 * related resource's policy does not let the caller view it
 * (docs/authorization.md "Included relations").
 * @param rows rows as the table has them; changed in place.
 * @param scopeOf the caller's scope of a policy's `view` action, for relations whose resource has a policy; absent: none are narrowed.
 */
export async function loadIncludes(
  db: AnyKysely,
  include: readonly IncludePlan[],
  rows: readonly Record<string, unknown>[],
  scopeOf?: (policy: string) => Promise<RowScope>,
): Promise<void> {
  for (const inc of include) {
    const keys = [...new Set(rows.map((r) => r[inc.column]).filter((v) => v !== null && v !== undefined))];
    const found = new Map<string, unknown>();
    if (keys.length > 0) {
      let query = db.selectFrom(inc.table).selectAll().where(inc.key, 'in', keys);
      if (inc.policy !== undefined && scopeOf !== undefined) query = query.where(await scopeOf(inc.policy));
      const related = (await query.execute()) as Record<string, unknown>[];
      for (const r of related) found.set(String(r[inc.key]), r);
    }
    for (const row of rows)
      row[inc.name] = row[inc.column] === null || row[inc.column] === undefined ? null : (found.get(String(row[inc.column])) ?? null);
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

/** One row as JSON: the route's serializer, then each included relation through its own (null stays null). */
export function rowSerializer(route: RouteDefinition): (row: Record<string, unknown>) => unknown {
  const serialize = route.output!.serialize;
  const include = route.include ?? [];
  if (include.length === 0) return serialize;
  return (row) => {
    const json = serialize(row) as Record<string, unknown>;
    for (const inc of include) {
      const related = row[inc.name];
      json[inc.name] = related === null || related === undefined ? null : inc.serialize(related);
    }
    return json;
  };
}
