/**
 * A list page as JSON (docs/schema-language.md "List routes"):
 * `{ data: [...], next }`, each row through the resource's serializer, with
 * its included relations through theirs.
 */
import type { RouteDefinition } from '../route-table.js';
import type { ListPage } from './run-list.js';

/**
 * Serialize the page a list route's handler returned.
 * @throws {TypeError} when the handler returned something else than `{ data: [...], next }`.
 */
export function serializeListPage(route: RouteDefinition, value: unknown): { data: unknown[]; next: string | null } {
  const page = value as ListPage<Record<string, unknown>> | null;
  if (page === null || typeof page !== 'object' || !Array.isArray(page.data)) {
    throw new TypeError(`The handler of list route "${route.name}" must return a page { data, next } (from runList), got ${page === null ? 'null' : Array.isArray(page) ? 'an array' : typeof page}.`);
  }
  const serialize = route.output!.serialize;
  const include = route.list!.include;
  const data = page.data.map((row) => {
    const json = serialize(row) as Record<string, unknown>;
    for (const inc of include) {
      const related = row[inc.name];
      json[inc.name] = related === null || related === undefined ? null : inc.serialize(related);
    }
    return json;
  });
  return { data, next: page.next ?? null };
}
