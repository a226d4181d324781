/**
 * The query parameters of a list route that its fields cannot check by
 * themselves (docs/schema-language.md "List routes"): a `filter[…]` the list
 * does not have, and a `sort` that is not one of its keys. Both are 422,
 * naming the parameter and listing the allowed values. Runs before binding.
 */
import type { FastifyRequest } from 'fastify';
import { ValidationError } from '../errors/validation-error.js';
import type { RouteDefinition } from '../routing/route-table.js';

/** A check of the request's query, or null for a route that is not a list route. */
export type ListParamCheck = (request: FastifyRequest) => void;

/**
 * Compile the check of `route`'s list parameters.
 * @returns null when the route has no list; else a function throwing {@link ValidationError} (422).
 */
export function compileListParamCheck(route: RouteDefinition): ListParamCheck | null {
  const plan = route.list;
  if (plan === undefined) return null;
  const filters = new Set(plan.filters.map((f) => f.param));
  const filterList = [...filters].join(', ');
  // The route's own query fields may start with "filter" too.
  const known = new Set(route.fields.flatMap((f) => (f.source === 'query' && f.name !== undefined ? [f.name] : [])));
  const sorts = plan.sort.flatMap((s) => [s.name, `-${s.name}`]);
  return (request) => {
    const query = request.query as Record<string, unknown> | undefined;
    if (query === undefined || query === null) return;
    let errors: Record<string, string> | undefined;
    for (const name of Object.keys(query)) {
      if (name.startsWith('filter') && !known.has(name)) {
        (errors ??= {})[name] =
          filters.size === 0
            ? `${name} is not a filter of this list; it has no filters.`
            : `${name} is not a filter of this list; the filters are: ${filterList}.`;
      }
    }
    const sort = query.sort;
    if (typeof sort === 'string' && !sorts.includes(sort)) {
      (errors ??= {}).sort = `sort=${sort} is not an order of this list; sort by one of: ${sorts.join(', ')}.`;
    }
    if (errors !== undefined) throw new ValidationError(errors);
  };
}
