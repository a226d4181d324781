/**
 * Resolving output shapes (docs/schema-language.md "Output shapes"): the
 * named shapes of `shapes:` (members, projections of a resource with
 * `pick`/`omit`) and the member types a shape or a route's `output:` is
 * written with.
 */
import type { RawShape, RawShapeMember, RawShapeType } from '../language/raw.js';
import type { DataPath } from '../load/node-position.js';
import { didYouMean } from '../suggest.js';
import type { OutputShape, Resource, Shape, ShapeMember, ShapeScalar, ShapeType } from './model.js';
import type { Reporter } from './reporter.js';

/** The scalar member types, in the order error messages list them. */
export const SHAPE_SCALARS: readonly ShapeScalar[] = ['string', 'integer', 'number', 'boolean', 'datetime', 'json'];

/** Column types a member may not use, with the member type to write instead. */
const COLUMN_TYPE_HINTS: Readonly<Record<string, ShapeScalar>> = {
  text: 'string',
  uuid: 'string',
  bigint: 'integer',
  duration: 'integer',
  timestamp: 'datetime',
};

/** What member types can name. */
export interface ShapeScope {
  /** Names of every declared resource (some may have failed to resolve). */
  readonly resources: ReadonlySet<string>;
  /** The resources that resolved, by name. */
  readonly resolved: ReadonlyMap<string, Resource>;
  /** Names of every declared shape. */
  readonly shapes: ReadonlySet<string>;
}

/** Whether a raw member is the long form `{ type, nullable?, description? }`. */
function isLongForm(
  raw: RawShapeMember,
): raw is { readonly type: RawShapeType; readonly nullable?: boolean; readonly optional?: boolean; readonly description?: string } {
  return typeof raw === 'object' && raw !== null && Object.hasOwn(raw, 'type');
}

/**
 * Resolve a member (or a route's `output:`) at `path`: a type, or the long
 * form. Errors go to `r`; returns undefined on an error.
 */
export function resolveShapeMember(
  r: Reporter,
  path: DataPath,
  raw: RawShapeMember,
  scope: ShapeScope,
): (OutputShape & { readonly optional: boolean }) | undefined {
  if (!isLongForm(raw)) {
    const type = resolveShapeType(r, path, raw, scope);
    return type && { type, nullable: false, optional: false };
  }
  const type = resolveShapeType(r, [...path, 'type'], raw.type, scope);
  if (!type) return undefined;
  return {
    type,
    nullable: raw.nullable === true,
    optional: raw.optional === true,
    ...(raw.description !== undefined ? { description: raw.description } : {}),
  };
}

/**
 * Resolve a member type at `path`: `string` … `json`, a resource or shape
 * name, `T[]`, or a map (an inline object). Errors go to `r` (at the type
 * name); returns undefined on an error.
 */
export function resolveShapeType(r: Reporter, path: DataPath, raw: RawShapeType, scope: ShapeScope): ShapeType | undefined {
  if (typeof raw !== 'string') {
    const members = resolveMembers(r, path, raw, scope);
    return members && { kind: 'object', members };
  }
  let depth = 0;
  let base = raw;
  while (base.endsWith('[]')) {
    base = base.slice(0, -2);
    depth++;
  }
  let type: ShapeType;
  if ((SHAPE_SCALARS as readonly string[]).includes(base)) type = { kind: 'scalar', scalar: base as ShapeScalar };
  else if (scope.resources.has(base)) {
    if (!scope.resolved.has(base)) return undefined; // the resource has errors of its own
    type = { kind: 'resource', name: base };
  } else if (scope.shapes.has(base)) type = { kind: 'shape', name: base };
  else {
    r.error(path, unknownTypeMessage(base, scope), 'value');
    return undefined;
  }
  for (let i = 0; i < depth; i++) type = { kind: 'array', items: type };
  return type;
}

function unknownTypeMessage(name: string, scope: ShapeScope): string {
  const column = COLUMN_TYPE_HINTS[name];
  if (column !== undefined) return `"${name}" is a column type; a member of a shape is written "${column}"`;
  const candidates = [...SHAPE_SCALARS, ...scope.resources, ...scope.shapes];
  const hint = didYouMean(name, candidates);
  if (/^[A-Z]/.test(name)) return `unknown resource or shape "${name}"${hint}; declare it under "resources:" or "shapes:"`;
  return `unknown type "${name}"${hint}; a member type is ${SHAPE_SCALARS.join(', ')}, a resource, a shape, T[] or an inline object { member: type }`;
}

/** Resolve the members of a map (a shape's `members:` or an inline object). */
function resolveMembers(
  r: Reporter,
  path: DataPath,
  raw: { readonly [member: string]: RawShapeMember },
  scope: ShapeScope,
): ShapeMember[] | undefined {
  let ok = true;
  const members: ShapeMember[] = [];
  for (const [name, rawMember] of Object.entries(raw)) {
    const resolved = resolveShapeMember(r, [...path, name], rawMember, scope);
    if (!resolved) ok = false;
    else members.push({ name, ...resolved });
  }
  return ok ? members : undefined;
}

/**
 * Resolve shape `name`: its projection (`from` with `pick` or `omit`) and
 * its members. Errors go to `r`; returns undefined on an error.
 */
export function resolveShape(r: Reporter, name: string, raw: RawShape, scope: ShapeScope): Shape | undefined {
  const path = ['shapes', name];
  let ok = true;
  let from: Shape['from'] = null;
  let kept = new Set<string>();
  if (raw.from !== undefined) {
    const resource = scope.resolved.get(raw.from);
    if (!resource) {
      ok = false;
      if (!scope.resources.has(raw.from))
        r.error(
          [...path, 'from'],
          `unknown resource "${raw.from}"${didYouMean(raw.from, scope.resources)}; a projection takes the fields of a resource declared under "resources:"`,
          'value',
        );
    } else {
      const fields = projectedFields(r, path, raw, resource);
      if (!fields) ok = false;
      else {
        from = { resource: resource.name, fields: fields.map((f) => f.name) };
        kept = new Set(fields.map((f) => f.json));
      }
    }
  } else if (raw.pick !== undefined || raw.omit !== undefined) {
    ok = false;
    r.error([...path, raw.pick !== undefined ? 'pick' : 'omit'], 'pick and omit choose fields of a resource; add "from: <Resource>"');
  }
  const members = raw.members === undefined ? [] : resolveMembers(r, [...path, 'members'], raw.members, scope);
  if (!members) ok = false;
  for (const m of members ?? []) {
    if (kept.has(m.name)) {
      ok = false;
      r.error(
        [...path, 'members', m.name],
        `"${m.name}" is already a member from ${raw.from}; omit the field to replace it, or rename the member`,
      );
    }
  }
  if (!ok) return undefined;
  return {
    name,
    ...(raw.description !== undefined ? { description: raw.description } : {}),
    from,
    members: members ?? [],
    origin: r.at(path),
  };
}

/** The visible fields a projection keeps, in the resource's order; errors at the `pick`/`omit` item. */
function projectedFields(r: Reporter, path: DataPath, raw: RawShape, resource: Resource): Resource['fields'] | undefined {
  if (raw.pick !== undefined && raw.omit !== undefined) {
    r.error([...path, 'omit'], 'a projection takes pick or omit, not both; keep one of them');
    return undefined;
  }
  const list = raw.pick ?? raw.omit ?? [];
  const listKey = raw.pick !== undefined ? 'pick' : 'omit';
  let ok = true;
  const named = new Set<string>();
  list.forEach((name, i) => {
    const matches = resource.fields.filter((f) => f.name === name || f.json === name);
    const field = matches.find((f) => f.name === name) ?? matches[0];
    if (!field) {
      ok = false;
      const visible = resource.fields.filter((f) => !f.hidden);
      r.error(
        [...path, listKey, i],
        `${resource.name} has no field "${name}"${didYouMean(name, [...visible.map((f) => f.name), ...visible.map((f) => f.json)])}; its fields: ${visible.map((f) => f.name).join(', ')}`,
        'value',
      );
      return;
    }
    if (field.hidden && listKey === 'pick') {
      ok = false;
      r.error(
        [...path, listKey, i],
        `"${name}" is a hidden field of ${resource.name}: it never appears in JSON; remove it from pick`,
        'value',
      );
      return;
    }
    if (named.has(field.name)) {
      ok = false;
      r.error([...path, listKey, i], `"${name}" names the field ${field.name} again; list each field once`, 'value');
    }
    named.add(field.name);
  });
  if (!ok) return undefined;
  return resource.fields.filter((f) => !f.hidden && (listKey === 'pick' ? named.has(f.name) : !named.has(f.name)));
}

/**
 * Report shapes that contain themselves with no list, nullable or optional member in
 * between: no value of them could ever be written.
 * @param declared every resolved shape with the reporter of its file.
 */
export function checkShapeCycles(declared: readonly { readonly shape: Shape; readonly r: Reporter }[]): void {
  const byName = new Map(declared.map((d) => [d.shape.name, d.shape]));
  const needs = (members: readonly ShapeMember[]): string[] => members.flatMap((m) => (m.nullable || m.optional ? [] : required(m.type)));
  const required = (type: ShapeType): string[] => (type.kind === 'shape' ? [type.name] : type.kind === 'object' ? needs(type.members) : []);
  for (const { shape, r } of declared) {
    const seen = new Set<string>();
    const stack = needs(shape.members);
    while (stack.length > 0) {
      const next = stack.pop()!;
      if (next === shape.name) {
        r.error(
          ['shapes', shape.name],
          `shape ${shape.name} contains itself through members that are neither lists, nullable nor optional, so no value of it can be written; make one of them nullable, optional or a list`,
        );
        break;
      }
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push(...needs(byName.get(next)?.members ?? []));
    }
  }
}
