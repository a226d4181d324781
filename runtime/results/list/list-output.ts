/**
 * A list page as JSON (docs/schema-language.md "List routes"):
 * `{ data: [...], next }` (an offset list: `{ data: [...], total }`), each row through the resource's serializer, with
 * its included relations through theirs.
 */
import { rowSerializer } from '../includes.js';
import type { RouteDefinition } from '../../routing/route-table.js';
import type { ListPage } from './run-list.js';

/**
 * Serialize the page a list route's handler returned.
 * @throws {TypeError} when the handler returned something else than `{ data: [...], next }`.
 */
export function serializeListPage(
  route: RouteDefinition,
  value: unknown,
): { data: unknown[]; next: string | null } | { data: unknown[]; total: number } {
  const offset = route.list?.paging === 'offset';
  const page = value as (ListPage<Record<string, unknown>> & { total?: number }) | null;
  if (page === null || typeof page !== 'object' || !Array.isArray(page.data)) {
    throw new TypeError(
      `The handler of list route "${route.name}" must return a page { data, ${offset ? 'total' : 'next'} } (from runList), got ${page === null ? 'null' : Array.isArray(page) ? 'an array' : typeof page}.`,
    );
  }
  const data = page.data.map(rowSerializer(route));
  return offset ? { data, total: typeof page.total === 'number' ? page.total : data.length } : { data, next: page.next ?? null };
}

/** A route's output as JSON: a list route's page, or rows (one or a list) with their included relations. */
export function serializeRouteOutput(route: RouteDefinition, value: unknown): unknown {
  if (route.list !== undefined) return serializeListPage(route, value);
  const serialize = rowSerializer(route);
  return Array.isArray(value) ? value.map(serialize) : serialize(value as Record<string, unknown>);
}
