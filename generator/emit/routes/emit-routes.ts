/**
 * `generated/routes.ts`: the route table the runtime registers (contract:
 * `RouteTable` in `runtime/routing/route-table.ts`), in YAML order with
 * files sorted by name; plus `RouteName` and `RouteParams` for typed URL
 * building.
 */
import { type StatementStructures, StructureKind } from '../ts-structures.js';
import type { Include, InputField, OutputShape, Resource, Route, RouteList, Shape } from '../../model/model.js';
import { rowIncludes } from '../../model/includes.js';
import { outputNames } from '../shape-types.js';
import { columnTypeOf } from '../column-type.js';
import { serializerName, validatorName } from '../../model/names.js';
import type { EmitContext } from '../context.js';
import type { GeneratedFile } from '../../write/generated-file.js';
import { Code, printLiteral, type Literal } from '../ts-literal.js';
import { createTsPrinter, exportedConst, quote } from '../ts-source.js';
import { validatorSchema } from '../validators/validator-schema.js';
import { authorizeLiteral, policyByResource, policyMember } from '../policies/route-policies.js';

/** Emit `routes.ts` (see the module comment). */
export function emitRoutes(ctx: EmitContext): GeneratedFile {
  const printer = createTsPrinter();
  const statements: (string | StatementStructures)[] = [];
  const routes = ctx.model.routes;
  const validators = routes.filter((r) => validatorSchema(r) !== null).map((r) => validatorName(r.name));
  const serializers = [
    ...new Set(
      routes.flatMap((r) => [
        ...(r.output ? [serializerName(r.output.resource)] : []),
        ...(r.shape !== null ? [outputNames({ ...r, shape: r.shape }).serializer] : []),
        ...rowIncludes(r.include).map((i) => serializerName(i.resource)),
      ]),
    ),
  ].sort();
  const resources = new Map(ctx.model.resources.map((r) => [r.name, r]));
  const policies = policyByResource(ctx.model);
  const shapes = new Map(ctx.model.shapes.map((s) => [s.name, s]));

  statements.push({
    kind: StructureKind.ImportDeclaration,
    isTypeOnly: true,
    moduleSpecifier: `${ctx.runtime}/routing`,
    namedImports: ['RouteTable'],
  });
  if (serializers.length > 0)
    statements.push({ kind: StructureKind.ImportDeclaration, moduleSpecifier: './serializers.js', namedImports: serializers });
  if (validators.length > 0)
    statements.push({ kind: StructureKind.ImportDeclaration, moduleSpecifier: './validators.js', namedImports: [...validators].sort() });

  statements.push(
    exportedConst(
      'Every route, in schema order (files sorted by name, then YAML order).',
      'routes',
      `${printLiteral(routes.map((r) => routeLiteral(r, resources, policies, shapes)))} as const satisfies RouteTable`,
    ),
  );
  statements.push({
    kind: StructureKind.TypeAlias,
    name: 'RouteName',
    isExported: true,
    docs: ['The name of a route.'],
    type: routes.length > 0 ? routes.map((r) => quote(r.name)).join(' | ') : 'never',
  });
  statements.push({
    kind: StructureKind.Interface,
    name: 'RouteParams',
    isExported: true,
    docs: ["The `{param}` values of each route's path, for building its URL."],
    properties: routes.map((r) => ({
      name: quote(r.name),
      type: r.pathParams.length > 0 ? `{ ${r.pathParams.map((p) => `${p}: string | number`).join('; ')} }` : 'Record<string, never>',
    })),
  });
  return printer.file('routes.ts', statements, ctx.header);
}

function routeLiteral(
  route: Route,
  resources: ReadonlyMap<string, Resource>,
  policies: ReadonlyMap<string, string>,
  shapes: ReadonlyMap<string, Shape>,
): Literal {
  return {
    name: route.name,
    method: route.method,
    path: route.path,
    group: route.group,
    middleware: [...route.middleware],
    ...(route.abilities.length > 0 ? { abilities: [...route.abilities] } : {}),
    ...(route.mcp ? { mcp: true } : {}),
    result: route.result,
    fields: route.input.map(fieldLiteral),
    validate: validatorSchema(route) ? new Code(validatorName(route.name)) : null,
    output: route.output
      ? {
          resource: route.output.resource,
          array: route.output.array,
          serialize: new Code(serializerName(route.output.resource)),
          ...policyMember(route.output.resource, policies),
          ...fileColumns(resources.get(route.output.resource)),
        }
      : route.shape !== null
        ? shapeOutput({ ...route, shape: route.shape }, resources, shapes)
        : null,
    origin: route.origin.file,
    ...(route.rateLimit !== null ? { rateLimit: { ...route.rateLimit } } : {}),
    ...(route.bodyLimit !== null ? { bodyLimit: route.bodyLimit } : {}),
    ...(route.confirmPassword !== null ? { confirmPassword: route.confirmPassword } : {}),
    ...(route.cors !== null
      ? {
          cors: {
            ...route.cors,
            origins: [...route.cors.origins],
            headers: [...route.cors.headers],
            exposeHeaders: [...route.cors.exposeHeaders],
          },
        }
      : {}),
    ...(route.list !== null ? { list: listLiteral(route.list, resources.get(route.list.resource)!, resources) } : {}),
    ...(route.include.length > 0 ? { include: route.include.map((i) => includeLiteral(i, resources, policies)) } : {}),
    ...authorizeLiteral(route),
    ...(route.tokenScheme !== null ? { tokenScheme: route.tokenScheme } : {}),
    ...(route.errorFormat !== null ? { errorFormat: errorFormatLiteral(route.errorFormat) } : {}),
  };
}

/** The runtime's `IncludePlan` of an included path, its own paths nested. */
function includeLiteral(i: Include, resources: ReadonlyMap<string, Resource>, policies: ReadonlyMap<string, string>): Literal {
  const rows = i.kind === 'one' || i.kind === 'many';
  return {
    name: i.name,
    ...(i.kind !== 'one' ? { kind: i.kind } : {}),
    column: i.column,
    table: i.table,
    key: i.key,
    ...(i.through !== undefined ? { through: { ...i.through } } : {}),
    ...(rows
      ? {
          serialize: new Code(serializerName(i.resource)),
          ...policyMember(i.resource, policies),
          ...fileColumns(resources.get(i.resource)),
        }
      : {}),
    ...(i.include.length > 0 ? { include: i.include.map((x) => includeLiteral(x, resources, policies)) } : {}),
  };
}

/**
 * The output plan of a shape output: its serializer (one item of a list of
 * a named shape), and the file columns of a projection, which get their
 * signed URLs like a resource's (docs/storage.md "Files of rows").
 */
function shapeOutput(
  route: Route & { readonly shape: OutputShape },
  resources: ReadonlyMap<string, Resource>,
  shapes: ReadonlyMap<string, Shape>,
): Literal {
  const names = outputNames(route);
  const from = names.own ? null : shapes.get(names.shape)!.from;
  const files = from ? fileColumns(resources.get(from.resource)).files?.filter((f) => from.fields.includes(f)) : undefined;
  return {
    shape: names.shape,
    array: names.array,
    serialize: new Code(names.serializer),
    ...(files !== undefined && files.length > 0 ? { files } : {}),
  };
}

/** The runtime's `ErrorFormatPlan` as a literal (fresh objects: the literal printer takes plain data). */
function errorFormatLiteral(format: NonNullable<Route['errorFormat']>): Literal {
  return { ...format, ...(format.messages !== undefined ? { messages: { ...format.messages } } : {}) };
}

/** `{ files: [...] }` with the visible `type: file` columns of `resource`, or nothing when it has none (docs/storage.md "Files of rows"). */
function fileColumns(resource: Resource | undefined): { files?: string[] } {
  const files = (resource?.fields ?? []).filter((f) => f.type.kind === 'file' && !f.hidden).map((f) => f.name);
  return files.length > 0 ? { files } : {};
}

/** The runtime's `ListPlan` of a list route: columns with their column types (cursor values and filter values are read as them). */
function listLiteral(list: RouteList, resource: Resource, resources: ReadonlyMap<string, Resource>): Literal {
  const field = (column: string) => resource.fields.find((f) => f.name === column)!;
  const pk = field(resource.primaryKey!);
  return {
    table: resource.table,
    primaryKey: pk.name,
    primaryKeyColumnType: columnTypeOf(pk.type),
    softDelete: resource.softDelete,
    sort: list.sort.map((s) => ({ name: s.name, column: s.column, columnType: columnTypeOf(field(s.column).type) })),
    filters: list.filters.map((f) => {
      const type = (f.through ? resources.get(f.through.resource)!.fields.find((x) => x.name === f.column)! : field(f.column)).type;
      const array = f.op === 'contains' && type.array;
      return {
        key: f.key,
        param: f.param,
        column: f.column,
        op: f.op,
        columnType: columnTypeOf({ ...type, array: false }),
        array,
        ...(f.through
          ? {
              through: {
                table: f.through.table,
                key: f.through.key,
                column: f.through.column,
                ...(f.through.join ? { join: { ...f.through.join } } : {}),
              },
            }
          : {}),
      };
    }),
    ...(list.paging === 'offset' ? { paging: 'offset' } : {}),
  };
}

function fieldLiteral(field: InputField): Literal {
  return {
    key: field.key,
    type: { kind: field.type.kind, array: field.type.array, nullable: field.type.nullable },
    source: field.source,
    json: field.json,
    form: field.form,
    name: field.name,
    default: field.default as Literal,
    rules: field.rules as unknown as Literal,
    ...(field.messages ? { messages: { ...field.messages } } : {}),
    ...(field.fields ? { fields: field.fields.map(fieldLiteral) } : {}),
  };
}
