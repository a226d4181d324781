/**
 * Resolving a route's `include:` (docs/schema-language.md "Included
 * relations", "Included paths and batch loading"): each entry is a path of
 * names separated by dots; each name is, on the rows it applies to, a
 * `references` field without its `_id` (`owner` for `owner_id`), a
 * many-to-many relation, or a computed field (which ends the path).
 */
import type { DataPath } from '../load/node-position.js';
import type { Include, Resource } from './model.js';
import { didYouMean } from '../suggest.js';
import type { Reporter } from './reporter.js';

/** A mutable include node while paths are merged. */
interface Node {
  include: Include;
  children: Node[];
}

/**
 * Resolve the paths of `routes.<name>.include` (at `path`) against
 * `resource`, the route's output, into a tree (`author.following` adds
 * `following` under `author`, including `author`). Errors go to `r`;
 * returns undefined on an error.
 * @param resources every resolved resource by name (related tables must be resources).
 */
export function resolveIncludes(
  r: Reporter,
  path: DataPath,
  names: readonly string[],
  resource: Resource,
  resources: ReadonlyMap<string, Resource>,
): Include[] | undefined {
  let ok = true;
  const roots: Node[] = [];
  names.forEach((entry, i) => {
    const fail = (message: string): void => {
      ok = false;
      r.error([...path, i], message, 'value');
    };
    let level = roots;
    let on = resource;
    const parts = entry.split('.');
    for (const [depth, name] of parts.entries()) {
      let node = level.find((n) => n.include.name === name);
      if (!node) {
        const resolved = resolveStep(name, on, resources);
        if (typeof resolved === 'string') {
          fail(parts.length > 1 ? `${parts.slice(0, depth + 1).join('.')}: ${resolved}` : resolved);
          return;
        }
        node = { include: resolved, children: [] };
        level.push(node);
      }
      if (depth < parts.length - 1) {
        if (node.include.kind === 'count' || node.include.kind === 'viewerIn') {
          fail(
            `"${name}" is a computed field of ${on.name} (a ${node.include.kind === 'count' ? 'number' : 'boolean'}); a path cannot go past it`,
          );
          return;
        }
        on = resources.get(node.include.resource)!;
        level = node.children;
      }
    }
  });
  return ok ? roots.map(freeze) : undefined;
}

function freeze(node: Node): Include {
  return { ...node.include, include: node.children.map(freeze) };
}

/** The include of `name` on rows of `on`, or the error text. */
function resolveStep(name: string, on: Resource, resources: ReadonlyMap<string, Resource>): Include | string {
  const relation = on.relations?.find((x) => x.name === name);
  if (relation) {
    return {
      name,
      kind: 'many',
      column: relation.ownerKey,
      resource: relation.resource,
      table: relation.table,
      key: relation.key,
      nullable: false,
      through: { table: relation.joinTable, from: relation.from, to: relation.to },
      include: [],
      ...(relation.description !== undefined ? { description: relation.description } : {}),
    };
  }
  const computed = on.computed?.find((x) => x.name === name);
  if (computed) {
    const rel = on.relations!.find((x) => x.name === computed.relation)!;
    return {
      name,
      kind: computed.kind,
      column: rel.ownerKey,
      resource: rel.resource,
      table: rel.table,
      key: rel.key,
      nullable: false,
      through: { table: rel.joinTable, from: rel.from, to: rel.to },
      include: [],
      ...(computed.description !== undefined ? { description: computed.description } : {}),
    };
  }
  const referencing = on.fields.filter((f) => f.references && f.name.endsWith('_id')).map((f) => f.name.slice(0, -3));
  const known = [...referencing, ...(on.relations ?? []).map((x) => x.name), ...(on.computed ?? []).map((x) => x.name)];
  const field = on.fields.find((f) => f.name === `${name}_id` && f.references);
  if (!field?.references) {
    return `${on.name} has no relation or computed field "${name}" (nor a field "${name}_id" with "references")${didYouMean(name, known)}; include names a references field without its _id, a relation or a computed field${known.length > 0 ? ` (here: ${known.join(', ')})` : ''}`;
  }
  const target = [...resources.values()].find((t) => t.table === field.references!.table);
  if (!target) {
    return `"${field.name}" references the table ${field.references.table}, which is not a resource of the schema; only resources can be included`;
  }
  if (on.fields.some((f) => !f.hidden && f.json === name)) {
    return `"${name}" is already a JSON member of ${on.name}; the included row would replace it`;
  }
  return {
    name,
    kind: 'one',
    column: field.name,
    resource: target.name,
    table: target.table,
    key: field.references.column,
    nullable: field.type.nullable,
    include: [],
  };
}

/** Every include of the tree whose member holds rows (`one`, `many`), depth first: the resources an output serializes. */
export function rowIncludes(include: readonly Include[]): Include[] {
  return include.flatMap((i) => (i.kind === 'one' || i.kind === 'many' ? [i, ...rowIncludes(i.include)] : []));
}
