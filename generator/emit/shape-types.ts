/**
 * Output shapes in generated code (docs/schema-language.md "Output shapes"):
 * the TypeScript types of a shape's value (what a handler returns) and of
 * its JSON (what the client receives), the names a route's output goes by,
 * and the resources and shapes an output reaches. Shared by the types,
 * handlers, serializers, routes, OpenAPI and client emitters.
 */
import type { Model, OutputShape, Route, Shape, ShapeMember, ShapeScalar, ShapeType } from '../model/model.js';
import { outputTypeName, resourceTypeNames, serializerName, shapeTypeNames } from '../model/names.js';
import { rowIncludes } from '../model/includes.js';
import { propertyName } from './ts-source.js';

const VALUE: Readonly<Record<ShapeScalar, string>> = {
  string: 'string',
  integer: 'number',
  number: 'number',
  boolean: 'boolean',
  datetime: 'Date | string',
  // Any value JSON.stringify writes: library types (interfaces) have no index signature, so they would not pass as JsonValue.
  json: 'unknown',
};

const JSON_TYPE: Readonly<Record<ShapeScalar, string>> = { ...VALUE, datetime: 'string', json: 'JsonValue' };

/** Which side of the serializer a type describes: the handler's value, or the JSON sent. */
export type ShapeSide = 'value' | 'json';

/** The TypeScript type of `type` on `side`; `null` added when nullable. */
export function shapeTsType(type: ShapeType, side: ShapeSide, nullable = false): string {
  const base = baseType(type, side);
  return nullable ? `${base} | null` : base;
}

function baseType(type: ShapeType, side: ShapeSide): string {
  switch (type.kind) {
    case 'scalar':
      return (side === 'value' ? VALUE : JSON_TYPE)[type.scalar];
    case 'resource':
      return side === 'value' ? resourceTypeNames(type.name).row : resourceTypeNames(type.name).json;
    case 'shape':
      return side === 'value' ? type.name : shapeTypeNames(type.name)[1];
    case 'array': {
      const items = baseType(type.items, side);
      return /[ |&]/.test(items) ? `(${items})[]` : `${items}[]`;
    }
    case 'object':
      return `{ ${type.members.map((m) => memberSignature(m, side)).join('; ')} }`;
  }
}

/** `name: type` of a member; an optional member may be left out, and on the value side a nullable one too (it is written as null). */
export function memberSignature(member: ShapeMember, side: ShapeSide): string {
  const optional = member.optional || (side === 'value' && member.nullable) ? '?' : '';
  return `${propertyName(member.name)}${optional}: ${shapeTsType(member.type, side, member.nullable)}`;
}

/**
 * How a route's shape output is named in generated code: a named shape (or a
 * list of one) by its own types and serializer; anything else by the
 * route's `<Route>Output` types and `serialize<Route>Output`, which
 * `types.ts` and `serializers.ts` declare (`own: true`).
 */
export interface OutputNames {
  readonly value: string;
  readonly json: string;
  /** The serializer of the shape (one item when `array`). */
  readonly serializer: string;
  /** The name of the shape (or `<Route>Output`). */
  readonly shape: string;
  /** The handler returns a list, each item through `serializer`. */
  readonly array: boolean;
  /** The route declares its own output types and serializer. */
  readonly own: boolean;
}

/** The names of a route's shape output (see {@link OutputNames}). */
export function outputNames(route: Route & { readonly shape: OutputShape }): OutputNames {
  const { type, nullable } = route.shape;
  const named = !nullable && type.kind === 'shape' ? type.name : null;
  const items = !nullable && type.kind === 'array' && type.items.kind === 'shape' ? type.items.name : null;
  const name = named ?? items;
  if (name !== null) {
    const [value, json] = shapeTypeNames(name);
    return {
      value: items ? `${value}[]` : value,
      json: items ? `${json}[]` : json,
      serializer: serializerName(name),
      shape: name,
      array: items !== null,
      own: false,
    };
  }
  const own = outputTypeName(route.name);
  return { value: own, json: `${own}Json`, serializer: serializerName(own), shape: own, array: false, own: true };
}

/** Routes with a shape output, narrowed. */
export function shapeRoutes(routes: readonly Route[]): (Route & { readonly shape: OutputShape })[] {
  return routes.filter((r): r is Route & { readonly shape: OutputShape } => r.shape !== null);
}

/**
 * What the JSON answers of `routes` carry: the shapes their outputs reach,
 * and every resource written in them — a route's output resource, its
 * included rows' resources, and those the shapes reach — in first-seen order.
 * The client and the OpenAPI document describe exactly these.
 */
export function answeredTypes(model: Model, routes: readonly Route[]): { resources: Set<string>; shapes: Set<string> } {
  const reached = reachedByShapes(
    model,
    shapeRoutes(routes).map((r) => r.shape.type),
  );
  const resources = new Set([
    ...routes.flatMap((r) => [...(r.output ? [r.output.resource] : []), ...rowIncludes(r.include).map((i) => i.resource)]),
    ...reached.resources,
  ]);
  return { resources, shapes: reached.shapes };
}

/**
 * The resources and shapes that `types` reach, through shapes and their
 * projections, transitively; each set in first-seen order.
 */
export function reachedByShapes(model: Model, types: readonly ShapeType[]): { resources: Set<string>; shapes: Set<string> } {
  const byName = new Map<string, Shape>(model.shapes.map((s) => [s.name, s]));
  const resources = new Set<string>();
  const shapes = new Set<string>();
  const visit = (type: ShapeType): void => {
    switch (type.kind) {
      case 'resource':
        resources.add(type.name);
        return;
      case 'array':
        visit(type.items);
        return;
      case 'object':
        for (const m of type.members) visit(m.type);
        return;
      case 'shape': {
        if (shapes.has(type.name)) return;
        shapes.add(type.name);
        const shape = byName.get(type.name)!;
        if (shape.from) resources.add(shape.from.resource);
        for (const m of shape.members) visit(m.type);
        return;
      }
      default:
        return;
    }
  };
  for (const t of types) visit(t);
  return { resources, shapes };
}

/** Whether any of `types` (or what they reach through `model`'s shapes) uses the scalar `scalar`. */
export function usesScalar(model: Model, scalar: ShapeScalar): boolean {
  const hit = (type: ShapeType): boolean =>
    type.kind === 'scalar'
      ? type.scalar === scalar
      : type.kind === 'array'
        ? hit(type.items)
        : type.kind === 'object'
          ? type.members.some((m) => hit(m.type))
          : false;
  return model.shapes.some((s) => s.members.some((m) => hit(m.type))) || model.routes.some((r) => r.shape !== null && hit(r.shape.type));
}
