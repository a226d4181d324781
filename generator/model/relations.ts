/**
 * Resolving a resource's `relations:` (many-to-many through a join
 * resource) and `computed:` fields (docs/schema-language.md "Many-to-many
 * relations", "Computed fields"), once every resource has resolved: a
 * relation names another resource (the join) whose fields reference both
 * ends.
 */
import type { RawComputed, RawRelation } from '../language/raw.js';
import type { DataPath } from '../load/node-position.js';
import type { ComputedField, Relation, Resource, ResourceField } from './model.js';
import { didYouMean } from '../suggest.js';
import type { Reporter } from './reporter.js';
import { USERS_TABLE } from './policies.js';

/** A resolved resource with its reporter and raw relations. */
export interface RelationSource {
  readonly resource: Resource;
  readonly r: Reporter;
  readonly relations?: Readonly<Record<string, RawRelation>>;
  readonly computed?: Readonly<Record<string, RawComputed>>;
}

/**
 * Resolve the relations and computed fields of every resource; errors go to
 * each resource's reporter. Returns the resources with `relations` and
 * `computed` set (those with errors keep what resolved).
 */
export function resolveRelations(sources: readonly RelationSource[]): Resource[] {
  const byName = new Map(sources.map((s) => [s.resource.name, s.resource]));
  return sources.map((s) => {
    if (s.relations === undefined && s.computed === undefined) return s.resource;
    const path = ['resources', s.resource.name];
    const taken = takenNames(s.resource);
    const relations: Relation[] = [];
    for (const [name, raw] of Object.entries(s.relations ?? {})) {
      const clash = taken.get(name);
      if (clash !== undefined) {
        s.r.error([...path, 'relations', name], `"${name}" is already ${clash} of ${s.resource.name}; name the relation otherwise`);
        continue;
      }
      const relation = resolveRelation(s.r, [...path, 'relations', name], name, raw, s.resource, byName);
      if (relation) {
        relations.push(relation);
        taken.set(name, 'a relation');
      }
    }
    const computed: ComputedField[] = [];
    for (const [name, raw] of Object.entries(s.computed ?? {})) {
      const at = [...path, 'computed', name];
      const clash = taken.get(name);
      if (clash !== undefined) {
        s.r.error(at, `"${name}" is already ${clash} of ${s.resource.name}; name the computed field otherwise`);
        continue;
      }
      const field = resolveComputed(s.r, at, name, raw, s.resource, relations, Object.keys(s.relations ?? {}), byName);
      if (field) {
        computed.push(field);
        taken.set(name, 'a computed field');
      }
    }
    return { ...s.resource, relations, computed };
  });
}

/** Names a relation or computed field cannot take: fields (columns and JSON names) and belongs-to names. */
function takenNames(resource: Resource): Map<string, string> {
  const taken = new Map<string, string>();
  for (const f of resource.fields) {
    taken.set(f.name, `the field "${f.name}"`);
    if (!f.hidden && !taken.has(f.json)) taken.set(f.json, `the JSON member of the field "${f.name}"`);
    if (f.references && f.name.endsWith('_id'))
      taken.set(f.name.slice(0, -3), `the belongs-to relation of "${f.name}" (include: [${f.name.slice(0, -3)}])`);
  }
  return taken;
}

function resolveRelation(
  r: Reporter,
  path: DataPath,
  name: string,
  raw: RawRelation,
  resource: Resource,
  resources: ReadonlyMap<string, Resource>,
): Relation | undefined {
  const join = resources.get(raw.through);
  if (!join) {
    const byTable = [...resources.values()].find((x) => x.table === raw.through);
    r.error(
      [...path, 'through'],
      byTable
        ? `"${raw.through}" is the table of the resource ${byTable.name}; through names the join resource: "through: ${byTable.name}"`
        : `"${raw.through}" is not a resource of the schema${didYouMean(raw.through, resources.keys())}; a relation goes through a join resource whose fields reference both ends — declare it under "resources:" (e.g. a table with ${singular(resource.table)}_id and the other key)`,
      'value',
    );
    return undefined;
  }
  const refs = join.fields.filter((f) => f.references !== undefined);
  const describe = (fields: readonly ResourceField[]): string =>
    fields.length > 0 ? fields.map((f) => `${f.name} (${f.references!.table}.${f.references!.column})`).join(', ') : 'none';
  // `from`: the join's key of this resource.
  let from: ResourceField | undefined;
  if (raw.from !== undefined) {
    from = join.fields.find((f) => f.name === raw.from);
    if (!from?.references || from.references.table !== resource.table) {
      r.error(
        [...path, 'from'],
        `${join.name}.${raw.from} ${
          from
            ? `does not reference ${resource.table}`
            : `is not a field${didYouMean(
                raw.from,
                join.fields.map((f) => f.name),
              )}`
        }; from names the field of ${join.name} referencing ${resource.table} (references fields: ${describe(refs)})`,
        'value',
      );
      return undefined;
    }
  } else {
    const own = refs.filter((f) => f.references!.table === resource.table);
    if (own.length !== 1) {
      r.error(
        path,
        own.length === 0
          ? `${join.name} has no field referencing ${resource.table}; the join resource needs one (e.g. ${singular(resource.table)}_id: { type: bigint, references: ${resource.table}.id }) — its references fields: ${describe(refs)}`
          : `${join.name} has ${own.length} fields referencing ${resource.table} (${own.map((f) => f.name).join(', ')}); name the keys: "from: ${own[0]!.name}, to: ${own[1]!.name}"`,
      );
      return undefined;
    }
    from = own[0]!;
  }
  // `to`: the join's key of the related resource.
  let to: ResourceField | undefined;
  if (raw.to !== undefined) {
    to = join.fields.find((f) => f.name === raw.to);
    if (!to?.references || to === from) {
      r.error(
        [...path, 'to'],
        `${join.name}.${raw.to} ${
          to === from
            ? 'is the from key as well'
            : to
              ? 'has no "references"'
              : `is not a field${didYouMean(
                  raw.to,
                  join.fields.map((f) => f.name),
                )}`
        }; to names the field of ${join.name} referencing the related resource (references fields: ${describe(refs)})`,
        'value',
      );
      return undefined;
    }
  } else {
    const others = refs.filter((f) => f !== from);
    if (others.length !== 1) {
      r.error(
        path,
        others.length === 0
          ? `${join.name} has no other references field than ${from.name}; a join resource references both ends`
          : `${join.name} has ${others.length} other references fields (${others.map((f) => f.name).join(', ')}); name the related one: "to: ${others[0]!.name}"`,
      );
      return undefined;
    }
    to = others[0]!;
  }
  const target = [...resources.values()].find((x) => x.table === to.references!.table);
  if (!target) {
    r.error(
      path,
      `${join.name}.${to.name} references the table ${to.references!.table}, which is not a resource of the schema; the related rows must be a resource`,
    );
    return undefined;
  }
  return {
    name,
    through: join.name,
    joinTable: join.table,
    from: from.name,
    ownerKey: from.references!.column,
    to: to.name,
    resource: target.name,
    table: target.table,
    key: to.references!.column,
    ...(raw.description !== undefined ? { description: raw.description } : {}),
    origin: r.at(path),
  };
}

function resolveComputed(
  r: Reporter,
  path: DataPath,
  name: string,
  raw: RawComputed,
  resource: Resource,
  relations: readonly Relation[],
  declared: readonly string[],
  resources: ReadonlyMap<string, Resource>,
): ComputedField | undefined {
  if ((raw.count === undefined) === (raw.viewerIn === undefined)) {
    r.error(path, 'a computed field is one of { count: <relation> } or { viewerIn: <relation> }');
    return undefined;
  }
  const kind = raw.count !== undefined ? 'count' : 'viewerIn';
  const relationName = (raw.count ?? raw.viewerIn)!;
  const relation = relations.find((x) => x.name === relationName);
  if (!relation) {
    if (!declared.includes(relationName))
      r.error(
        [...path, kind],
        `${resource.name} has no relation "${relationName}"${didYouMean(relationName, declared)}; ${kind} names a many-to-many relation of the resource${declared.length > 0 ? ` (here: ${declared.join(', ')})` : ': declare it under "relations:"'}`,
        'value',
      );
    return undefined; // a declared relation with errors of its own
  }
  if (kind === 'viewerIn' && resources.get(relation.resource)?.table !== USERS_TABLE) {
    r.error(
      [...path, kind],
      `"${relationName}" relates ${resource.name} to ${relation.resource}, not to the signed-in users (table ${USERS_TABLE}); viewerIn asks whether the signed-in user is among the related rows`,
      'value',
    );
    return undefined;
  }
  return {
    name,
    kind,
    relation: relation.name,
    ...(raw.description !== undefined ? { description: raw.description } : {}),
    origin: r.at(path),
  };
}

/** `articles` → `article` (for hints only). */
function singular(table: string): string {
  return table.endsWith('s') ? table.slice(0, -1) : table;
}
