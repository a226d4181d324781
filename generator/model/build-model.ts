/**
 * Stage 2 of the pipeline: merge the schema files into one resolved
 * {@link Model}, with every semantic check (names used once across files,
 * references resolved, binding and rules valid).
 */
import type { Diagnostics } from '../diagnostics.js';
import type { RawPolicy, RawSchemaFile, RawShape } from '../language/raw.js';
import type { DataPath } from '../load/node-position.js';
import type { SchemaFile } from '../load/schema-file.js';
import { resolveBodyLimit, resolveCors, resolveRateLimit } from './access.js';
import type { ApiInfo, Group, Model, Resource, Route, Shape } from './model.js';
import { resolveErrorFormat, resolveTokenScheme } from './group-options.js';
import { RESERVED_SHAPE_NAMES, RESERVED_TYPE_NAMES, resourceTypeNames, shapeTypeNames } from './names.js';
import { checkShapeCycles, resolveShape, type ShapeScope } from './shapes.js';
import { formatPosition, reporter, type Reporter } from './reporter.js';
import { checkPrototypeKeys, checkTableName } from './reserved-names.js';
import { checkResources, resolveResource, type DeclaredResource } from './resources.js';
import { checkRoutes, resolveRoute, type DeclaredRoute } from './routes.js';
import { checkMessageKeys } from './message-keys.js';
import { checkPolicies, resolvePolicy, USERS_TABLE, type DeclaredPolicy } from './policies.js';
import type { Policy } from './policy-model.js';
import { authorizeRoutes } from './route-authorization.js';
import { resolveRelations } from './relations.js';

/** API info used when no file has an `info:` key. */
const DEFAULT_INFO: ApiInfo = { title: 'API', version: '0.0.0' };

interface Declaration<T> {
  readonly name: string;
  readonly raw: T;
  readonly r: Reporter;
}

/**
 * Build the model from files that passed the structure check (their `data`
 * follows `bindery.schema.json`). Every error goes to `diagnostics`.
 * @param pluginTables tables the app's plugins create (table → plugin package name): no resource may use them.
 * @param messageKeys the keys of the project's catalogs: a `messages:` key missing from them is an error; undefined: not checked.
 * @returns the model, or undefined when any error was found.
 */
export function buildModel(
  files: readonly SchemaFile[],
  diagnostics: Diagnostics,
  pluginTables: ReadonlyMap<string, string> = new Map(),
  messageKeys?: ReadonlySet<string>,
): Model | undefined {
  let info: { value: ApiInfo; r: Reporter } | undefined;
  const groups = new Map<string, Group>();
  const resources = collect<NonNullable<RawSchemaFile['resources']>[string]>('resource');
  const routes = collect<NonNullable<RawSchemaFile['routes']>[string]>('route');
  const policies = collect<NonNullable<RawSchemaFile['policies']>[string]>('policy');
  const shapes = collect<NonNullable<RawSchemaFile['shapes']>[string]>('shape');

  for (const file of files) {
    const r = reporter(file, diagnostics);
    const data = file.data as RawSchemaFile;
    checkPrototypeKeys(r, data);
    if (data.info) {
      if (info) r.error(['info'], `"info" is already given at ${formatPosition(info.r.at(['info']))}; keep it in one file`);
      else info = { value: data.info, r };
    }
    for (const [name, raw] of Object.entries(data.groups ?? {})) {
      const first = groups.get(name);
      if (first) {
        r.error(['groups', name], `group "${name}" is already declared at ${formatPosition(first.origin)}; rename one of them`);
        continue;
      }
      const cors = resolveCors(r, ['groups', name, 'cors'], raw.cors);
      const rateLimit = resolveRateLimit(r, ['groups', name, 'rateLimit'], raw.rateLimit);
      const bodyLimit = resolveBodyLimit(r, ['groups', name, 'bodyLimit'], raw.bodyLimit);
      const tokenScheme = resolveTokenScheme(r, ['groups', name], raw);
      const errorFormat = resolveErrorFormat(r, ['groups', name, 'errors'], raw.errors);
      groups.set(name, {
        name,
        ...(raw.description !== undefined ? { description: raw.description } : {}),
        middleware: raw.middleware,
        ...(cors !== undefined ? { cors } : {}),
        ...(rateLimit ? { rateLimit } : {}),
        ...(bodyLimit !== undefined ? { bodyLimit } : {}),
        ...(tokenScheme !== undefined ? { tokenScheme } : {}),
        ...(raw.mcp !== undefined ? { mcp: raw.mcp } : {}),
        ...(errorFormat ? { errorFormat } : {}),
        origin: r.at(['groups', name]),
      });
    }
    for (const [name, raw] of Object.entries(data.resources ?? {})) {
      checkTableName(r, name, raw.table, pluginTables);
      resources.add(r, ['resources', name], name, raw);
    }
    for (const [name, raw] of Object.entries(data.routes ?? {})) routes.add(r, ['routes', name], name, raw);
    for (const [name, raw] of Object.entries(data.policies ?? {})) policies.add(r, ['policies', name], name, raw);
    for (const [name, raw] of Object.entries(data.shapes ?? {})) shapes.add(r, ['shapes', name], name, raw);
  }

  const declaredResources: DeclaredResource[] = [];
  const rawResources = new Map(resources.list.map((d) => [d.name, d.raw]));
  for (const d of resources.list) {
    const resource = resolveResource(d.r, d.name, d.raw);
    if (resource) declaredResources.push({ resource, r: d.r });
  }
  checkResources(declaredResources);
  const withRelations = resolveRelations(
    declaredResources.map((d) => ({
      ...d,
      relations: rawResources.get(d.resource.name)!.relations,
      computed: rawResources.get(d.resource.name)!.computed,
    })),
  );
  const resolvedResources: DeclaredResource[] = declaredResources.map((d, i) => ({ resource: withRelations[i]!, r: d.r }));
  const typeNames = checkTypeNames(resolvedResources);

  const scope = {
    groups,
    resources: new Set(resources.list.map((d) => d.name)),
    resolved: new Map(resolvedResources.map((d) => [d.resource.name, d.resource])),
    shapes: new Set(shapes.list.map((d) => d.name)),
  };
  const resolvedShapes = resolveShapes(shapes.list, scope, typeNames);
  const resolvedRoutes: DeclaredRoute[] = [];
  for (const d of routes.list) {
    const route = resolveRoute(d.r, d.name, d.raw, scope);
    if (route) resolvedRoutes.push({ route, r: d.r });
  }
  checkRoutes(resolvedRoutes, typeNames);
  checkMessageKeys(resolvedRoutes, messageKeys);
  const resolvedPolicies = resolvePolicies(policies.list, scope.resolved);
  const rawRoutes = new Map(routes.list.map((x) => [x.name, x.raw]));
  const authorizations = authorizeRoutes(
    resolvedRoutes.map((d) => ({ ...d, raw: rawRoutes.get(d.route.name)! })),
    resolvedPolicies,
    new Set(policies.list.map((d) => d.name)),
  );

  if (diagnostics.any) return undefined;
  return {
    info: info?.value ?? DEFAULT_INFO,
    groups: [...groups.values()],
    resources: resolvedResources.map((d): Resource => d.resource),
    routes: resolvedRoutes.map((d): Route => ({ ...d.route, authorize: authorizations.get(d.route.name) ?? null })),
    policies: resolvedPolicies,
    shapes: resolvedShapes,
  };
}

/** Resolve every shape; a shape's name and the types it adds must be free type names (they join `typeNames`). */
function resolveShapes(declared: readonly Declaration<RawShape>[], scope: ShapeScope, typeNames: Map<string, string>): Shape[] {
  const resolved: { shape: Shape; r: Reporter }[] = [];
  for (const d of declared) {
    for (const typeName of shapeTypeNames(d.name)) {
      const owner =
        d.name === typeName && scope.resources.has(d.name)
          ? `resource ${d.name}`
          : RESERVED_SHAPE_NAMES.includes(typeName)
            ? 'bindery itself (the typed client)'
            : typeNames.get(typeName);
      if (owner !== undefined)
        d.r.error(['shapes', d.name], `shape ${d.name} would declare the type ${typeName}, already declared by ${owner}; rename the shape`);
      if (owner === undefined) typeNames.set(typeName, `shape ${d.name}`);
    }
    const shape = resolveShape(d.r, d.name, d.raw, scope);
    if (shape) resolved.push({ shape, r: d.r });
  }
  checkShapeCycles(resolved);
  return resolved.map((d) => d.shape);
}

/** Resolve every policy against the resolved resources, with the checks across policies. */
function resolvePolicies(declared: readonly Declaration<RawPolicy>[], resources: ReadonlyMap<string, Resource>): Policy[] {
  const users = [...resources.values()].find((x) => x.table === USERS_TABLE);
  const resolved: DeclaredPolicy[] = [];
  for (const d of declared) {
    const policy = resolvePolicy(d.r, d.name, d.raw, { resources, users });
    if (policy) resolved.push({ policy, r: d.r });
  }
  checkPolicies(resolved);
  return resolved.map((d) => d.policy);
}

/** Declarations of one kind, reporting a name declared twice (in one or several files). */
function collect<T>(kind: string): { list: Declaration<T>[]; add(r: Reporter, path: DataPath, name: string, raw: T): void } {
  const list: Declaration<T>[] = [];
  const seen = new Map<string, Reporter>();
  return {
    list,
    add(r, path, name, raw) {
      const first = seen.get(name);
      if (first) {
        r.error(path, `${kind} "${name}" is already declared at ${formatPosition(first.at(path))}; rename one of them`);
        return;
      }
      seen.set(name, r);
      list.push({ name, raw, r });
    },
  };
}

/** The type names resources add to `generated/types.ts` must be distinct; returns them with their owner. */
function checkTypeNames(declared: readonly DeclaredResource[]): Map<string, string> {
  const owners = new Map<string, string>(RESERVED_TYPE_NAMES.map((n) => [n, 'bindery itself']));
  for (const { resource, r } of declared) {
    for (const typeName of Object.values(resourceTypeNames(resource.name))) {
      const owner = owners.get(typeName);
      if (owner !== undefined) {
        r.error(
          ['resources', resource.name],
          `resource ${resource.name} would declare the type ${typeName}, already declared by ${owner}; rename the resource`,
        );
      }
      owners.set(typeName, `resource ${resource.name}`);
    }
  }
  return owners;
}
