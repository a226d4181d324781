/**
 * The output shapes' serializers in `generated/serializers.ts`
 * (docs/schema-language.md "Output shapes"): `serialize<Shape>(value)` per
 * named shape and `serialize<Route>Output(value)` per route whose output is
 * not a resource or a named shape. Each builds new objects with the declared
 * members only — a member the shape does not declare never reaches the
 * client — in straight-line code, like the resource serializers.
 */
import { StructureKind, type StatementStructures } from '../ts-structures.js';
import type { Model, Resource, Shape, ShapeMember, ShapeType } from '../../model/model.js';
import { serializerName, shapeTypeNames } from '../../model/names.js';
import { outputNames, shapeRoutes, shapeTsType, usesScalar } from '../shape-types.js';
import { propertyName } from '../ts-source.js';
import { present, value } from './field-json.js';

const DATETIME_TEXT = 'datetimeText';

/** The type-only import of the shapes' types from `./types.js`, or nothing when there are none. */
export function shapeImports(model: Model): StatementStructures[] {
  const names = [
    ...(usesScalar(model, 'json') ? ['JsonValue'] : []),
    ...model.shapes.flatMap((s) => shapeTypeNames(s.name)),
    ...shapeRoutes(model.routes)
      .map(outputNames)
      .filter((n) => n.own)
      .flatMap((n) => [n.value, n.json]),
  ];
  if (names.length === 0) return [];
  return [{ kind: StructureKind.ImportDeclaration, isTypeOnly: true, moduleSpecifier: './types.js', namedImports: names.sort() }];
}

/** The serializer functions of every shape and every route's own output. */
export function shapeSerializers(model: Model): StatementStructures[] {
  const resources = new Map(model.resources.map((r) => [r.name, r]));
  const statements: StatementStructures[] = [];
  if (usesScalar(model, 'datetime')) {
    statements.push({
      kind: StructureKind.Function,
      name: DATETIME_TEXT,
      docs: ['A `datetime` member as RFC 3339 text (a `Date`, or text passed through).'],
      parameters: [{ name: 'value', type: 'Date | string' }],
      returnType: 'string',
      statements: ["return typeof value === 'string' ? value : value.toISOString();"],
    });
  }
  for (const shape of model.shapes) {
    const [type, json] = shapeTypeNames(shape.name);
    statements.push({
      kind: StructureKind.Function,
      name: serializerName(shape.name),
      isExported: true,
      docs: [`Shape ${shape.name} → JSON (\`${json}\`): its declared members only.`],
      parameters: [{ name: 'value', type }],
      returnType: json,
      statements: shapeBody(shape, shape.from ? resources.get(shape.from.resource)! : null, json),
    });
  }
  for (const route of shapeRoutes(model.routes)) {
    const names = outputNames(route);
    if (!names.own) continue;
    statements.push({
      kind: StructureKind.Function,
      name: names.serializer,
      isExported: true,
      docs: [`The output of route \`${route.name}\` → JSON (\`${names.json}\`): its declared members only.`],
      parameters: [{ name: 'value', type: names.value }],
      returnType: names.json,
      statements: [`return ${expression(route.shape.type, route.shape.nullable, 'value', 0)};`],
    });
  }
  return statements;
}

interface Entry {
  readonly key: string;
  readonly expr: string;
  /** Written only when this holds (an `omitEmpty` field), with `known` as its value. */
  readonly when?: { readonly condition: string; readonly known: string };
}

/** One object literal, or (with `omitEmpty` fields) the literal up to the first such field, then assignments in order. */
function shapeBody(shape: Shape, resource: Resource | null, json: string): string[] {
  const fields = resource ? resource.fields.filter((f) => shape.from!.fields.includes(f.name)) : [];
  const entries: Entry[] = [
    ...fields.map(
      (f): Entry => ({
        key: f.json,
        expr: value(f, false, 'value'),
        ...(f.omitEmpty ? { when: { condition: present(f, 'value'), known: value(f, true, 'value') } } : {}),
      }),
    ),
    ...shape.members.map((m): Entry => {
      const read = access('value', m.name);
      const expr = expression(m.type, m.nullable, read, 0);
      return { key: m.name, expr, ...(m.optional ? { when: { condition: `${read} !== undefined`, known: expr } } : {}) };
    }),
  ];
  const first = entries.findIndex((e) => e.when !== undefined);
  if (first === -1) return [`return {\n${entries.map((e) => `  ${propertyName(e.key)}: ${e.expr},\n`).join('')}};`];
  const head = entries.slice(0, first);
  const statements = [
    `const json = {${head.map((e) => `\n  ${propertyName(e.key)}: ${e.expr},`).join('')}${head.length ? '\n' : ''}} as ${json};`,
  ];
  for (const e of entries.slice(first)) {
    const target = access('json', e.key);
    statements.push(e.when ? `if (${e.when.condition}) ${target} = ${e.when.known};` : `${target} = ${e.expr};`);
  }
  statements.push('return json;');
  return statements;
}

/** `base.name`, or `base["na-me"]` when the name is not an identifier. */
function access(base: string, name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? `${base}.${name}` : `${base}[${propertyName(name)}]`;
}

/** The JSON of `read`, a value of `type`; `depth` names the variables of nested lists. */
function expression(type: ShapeType, nullable: boolean, read: string, depth: number): string {
  if (plain(type)) {
    const value = nullable ? `${read} ?? null` : read;
    // A json member's value is `unknown` on the handler's side: written as it is, typed as JSON.
    return hasJson(type) ? `${nullable ? `(${value})` : value} as ${shapeTsType(type, 'json', nullable)}` : value;
  }
  const inner = nonNull(type, read, depth);
  return nullable ? `${read} === null || ${read} === undefined ? null : ${inner}` : inner;
}

/** Scalars other than datetime, and lists of them: written as they are (they carry no members). */
function plain(type: ShapeType): boolean {
  return (type.kind === 'scalar' && type.scalar !== 'datetime') || (type.kind === 'array' && plain(type.items));
}

function hasJson(type: ShapeType): boolean {
  return type.kind === 'array' ? hasJson(type.items) : type.kind === 'scalar' && type.scalar === 'json';
}

function nonNull(type: ShapeType, read: string, depth: number): string {
  switch (type.kind) {
    case 'scalar':
      return type.scalar === 'datetime' ? `${DATETIME_TEXT}(${read})` : read;
    case 'resource':
    case 'shape':
      return `${serializerName(type.name)}(${read})`;
    case 'array': {
      const item = `item${depth}`;
      const each = expression(type.items, false, item, depth + 1);
      return `${read}.map((${item}) => ${each.startsWith('{') ? `(${each})` : each})`;
    }
    case 'object':
      return `{ ${type.members.map((m) => objectMember(m, read, depth)).join(', ')} }`;
  }
}

/** A member in an object literal; an optional one is spread in only when the value has it. */
function objectMember(m: ShapeMember, read: string, depth: number): string {
  const from = access(read, m.name);
  const entry = `${propertyName(m.name)}: ${expression(m.type, m.nullable, from, depth)}`;
  return m.optional ? `...(${from} === undefined ? {} : { ${entry} })` : entry;
}
