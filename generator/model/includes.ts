/**
 * Resolving a route's `include:` (docs/schema-language.md "Included
 * relations"): each name is a `references` field of the output resource
 * without its `_id` (`owner` for `owner_id`), pointing at another resource,
 * whose row is added to every output row under that name.
 */
import type { DataPath } from '../load/node-position.js';
import type { Include, Resource } from './model.js';
import { didYouMean } from '../suggest.js';
import type { Reporter } from './reporter.js';

/**
 * Resolve the names of `routes.<name>.include` (at `path`) against
 * `resource`, the route's output. Errors go to `r`; returns undefined on an error.
 * @param resources every resolved resource by name (the referenced table must be one).
 */
export function resolveIncludes(
  r: Reporter,
  path: DataPath,
  names: readonly string[],
  resource: Resource,
  resources: ReadonlyMap<string, Resource>,
): Include[] | undefined {
  let ok = true;
  const include: Include[] = [];
  const jsonNames = new Set(resource.fields.filter((f) => !f.hidden).map((f) => f.json));
  const referencing = resource.fields.filter((f) => f.references && f.name.endsWith('_id')).map((f) => f.name.slice(0, -3));
  names.forEach((name, i) => {
    const fail = (message: string): void => {
      ok = false;
      r.error([...path, i], message, 'value');
    };
    const field = resource.fields.find((f) => f.name === `${name}_id` && f.references);
    if (!field?.references) {
      fail(
        `${resource.name} has no field "${name}_id" with "references"${didYouMean(name, referencing)}; include names a references field without its _id${referencing.length > 0 ? ` (here: ${referencing.join(', ')})` : ''}`,
      );
      return;
    }
    const target = [...resources.values()].find((t) => t.table === field.references!.table);
    if (!target) {
      fail(
        `"${field.name}" references the table ${field.references.table}, which is not a resource of the schema; only resources can be included`,
      );
      return;
    }
    if (jsonNames.has(name)) {
      fail(`"${name}" is already a JSON member of ${resource.name}; the included row would replace it`);
      return;
    }
    include.push({
      name,
      column: field.name,
      resource: target.name,
      table: target.table,
      key: field.references.column,
      nullable: field.type.nullable,
    });
  });
  return ok ? include : undefined;
}
