/**
 * Resolving routes (`routes.<name>`): group, output, path parameters and
 * input binding — and the checks across routes (method + path, generated
 * names).
 */
import type { RawList, RawRoute } from '../language/raw.js';
import { resolveBodyLimit, resolveRateLimit } from './access.js';
import { checkCrossFieldRules, resolveInputField } from './input-fields.js';
import { LIST_KEYS, resolveList } from './list-routes.js';
import { resolveIncludes } from './includes.js';
import type { ShapeScope } from './shapes.js';
import { routeMiddleware } from './group-options.js';
import type { Group, Include, InputField, OutputShape, Route } from './model.js';
import { clashesWithValidatorInternals, inputTypeName, outputTypeName, shapeTypeNames, validatorName } from './names.js';
import { pathParams, pathShape } from './paths.js';
import { parseDuration } from '../../runtime/support/duration.js';
import { didYouMean } from '../suggest.js';
import { formatPosition, type Reporter } from './reporter.js';
import { routeCheck, type RouteCheck } from './route-check.js';
import { resolveOutput, unboundedAdvice, type RouteAnswer } from './route-output.js';

/** The middleware that reads bearer tokens and checks a route's `abilities` (runtime/auth/tokens). */
export const TOKEN_MIDDLEWARE = 'token';

/** The middleware a route with `confirmPassword` needs in its group (the confirmation time lives in the session). */
export const SESSION_MIDDLEWARE = 'session';

/** What routes can refer to: groups, resources and shapes. */
export interface RouteScope extends ShapeScope {
  readonly groups: ReadonlyMap<string, Group>;
}

/**
 * Resolve route `name`. Errors go to `r`; returns undefined when the route has
 * an error.
 */
export function resolveRoute(r: Reporter, name: string, raw: RawRoute, scope: RouteScope): Route | undefined {
  const path = ['routes', name];
  const c = routeCheck(r, path);
  const { group, middleware, abilities } = resolveGuards(c, raw, scope);
  const confirmPassword = resolveConfirmPassword(c, raw, group);
  const answer = resolveOutput(c, raw, scope);
  const { params, fields } = resolveBinding(c, raw);
  const list = raw.list !== undefined ? resolveRouteList(c, raw, raw.list, scope, answer, fields) : null;
  const include = resolveRouteIncludes(c, raw, scope, answer, list);
  unboundedAdvice(c, raw, answer, list);
  if (!checkDistinctNames(r, [...path, 'input'], fields)) c.failed();
  if (!checkCrossFieldRules(r, [...path, 'input'], fields)) c.failed();
  const limits = resolveLimits(c, raw, group);
  const mcp = resolveMcp(c, raw, group, fields);

  if (!c.ok) return undefined;
  return {
    name,
    method: raw.method,
    path: raw.path,
    pathParams: params,
    group: group?.name ?? null,
    middleware: middleware ?? [],
    abilities: [...abilities],
    mcp,
    ...(raw.summary !== undefined ? { summary: raw.summary } : {}),
    ...(raw.description !== undefined ? { description: raw.description } : {}),
    errors: Object.entries(raw.errors ?? {})
      .map(([status, description]) => ({ status: Number(status), description }))
      .sort((a, b) => a.status - b.status),
    input: fields,
    output: answer.output,
    shape: answer.shape,
    result: raw.result,
    ...limits,
    cors: group?.cors ?? null,
    confirmPassword,
    list,
    include,
    authorize: null,
    tokenScheme: group?.tokenScheme ?? null,
    errorFormat: group?.errorFormat ?? null,
    origin: r.at(path),
  };
}

/** The route's group, the middleware it runs and the token abilities it needs (checked against the group's middleware). */
function resolveGuards(
  c: RouteCheck,
  raw: RawRoute,
  scope: RouteScope,
): { group: Group | undefined; middleware: readonly string[] | undefined; abilities: readonly string[] } {
  let group: Group | undefined;
  if (raw.group !== undefined) {
    group = scope.groups.get(raw.group);
    if (!group)
      c.fail(['group'], `unknown group "${raw.group}"${didYouMean(raw.group, scope.groups.keys())}; declare it under "groups:"`, 'value');
  }

  const middleware = routeMiddleware(c.r, c.path, raw.auth, group);
  if (middleware === undefined) c.failed();
  const abilities = raw.abilities ?? [];
  if (abilities.length > 0 && !(group?.middleware ?? []).includes(TOKEN_MIDDLEWARE)) {
    c.fail(
      ['abilities'],
      `abilities are checked by the "${TOKEN_MIDDLEWARE}" middleware, which ${group ? `group "${group.name}" does not list (middleware: [${group.middleware.join(', ')}])` : 'a route without a group does not run'}; put the route in a group with "${TOKEN_MIDDLEWARE}" or remove "abilities"`,
    );
  }
  return { group, middleware, abilities };
}

/**
 * Whether the route is an MCP tool (docs/mcp.md): its own `mcp:`, else its
 * group's. Tools answer JSON: pages, redirects and file uploads are none (a
 * route saying `mcp: true` is refused, a group's `mcp: true` leaves them out).
 */
function resolveMcp(c: RouteCheck, raw: RawRoute, group: Group | undefined, fields: readonly InputField[]): boolean {
  const wanted = raw.mcp ?? group?.mcp ?? false;
  if (!wanted) return false;
  const unfit =
    raw.result === 'page' || raw.result === 'redirect'
      ? `its result is a ${raw.result}`
      : fields.some((f) => f.type.kind === 'file')
        ? 'it takes a file upload'
        : undefined;
  if (unfit !== undefined && raw.mcp === true) c.fail(['mcp'], `an MCP tool answers JSON, but ${unfit}; remove "mcp: true"`, 'value');
  return unfit === undefined;
}

/** The password confirmation window (`confirmPassword:`), which needs the session: in ms, `true` for the app's setting, or null. */
function resolveConfirmPassword(c: RouteCheck, raw: RawRoute, group: Group | undefined): number | true | null {
  if (raw.confirmPassword === undefined) return null;
  const ms = raw.confirmPassword === true ? true : parseDuration(raw.confirmPassword);
  if (ms === undefined || (ms !== true && (ms < 1000 || !Number.isInteger(ms)))) {
    c.fail(
      ['confirmPassword'],
      'confirmPassword takes a window of at least one second, e.g. 15m or 2h, or true for the AUTH_PASSWORD_TIMEOUT setting',
      'value',
    );
  } else if (!(group?.middleware ?? []).includes(SESSION_MIDDLEWARE)) {
    c.fail(
      ['confirmPassword'],
      `the time of the last password confirmation lives in the session, which ${group ? `group "${group.name}" does not load (middleware: [${group.middleware.join(', ')}])` : 'a route without a group has not'}; put the route in a group with "${SESSION_MIDDLEWARE}" and "auth" (e.g. member)`,
    );
  } else return ms;
  return null;
}

/** The path's `{param}`s and the `input:` fields, each path parameter bound to exactly one field and no body on GET or OPTIONS. */
function resolveBinding(c: RouteCheck, raw: RawRoute): { params: string[]; fields: InputField[] } {
  const params = pathParams(raw.path);
  const repeated = params.filter((p, i) => params.indexOf(p) !== i);
  if (repeated.length > 0)
    c.fail(['path'], `path parameter {${repeated[0]}} appears twice in ${raw.path}; give each parameter its own name`, 'value');

  const fields: InputField[] = [];
  for (const [key, rawField] of Object.entries(raw.input ?? {})) {
    const field = resolveInputField(c.r, [...c.path, 'input', key], key, rawField);
    if (!field) {
      c.failed();
      continue;
    }
    fields.push(field);
    if (field.source === 'body' && (raw.method === 'GET' || raw.method === 'OPTIONS')) {
      c.fail(['input', key], `a ${raw.method} request has no body; bind "${key}" with query, path or header`);
    }
    if (field.source === 'path' && !params.includes(field.name!)) {
      c.fail(
        ['input', key, 'path'],
        `"${field.name}" is not a parameter of ${raw.path}${params.length > 0 ? `; its parameters: ${params.join(', ')}` : ''}`,
      );
    }
  }
  for (const param of params.filter((p, i) => params.indexOf(p) === i)) {
    if (!fields.some((f) => f.source === 'path' && f.name === param)) {
      c.fail(
        ['path'],
        `path parameter {${param}} has no input field bound to it; add e.g. "${param}: { type: integer, path: true }" under input`,
        'value',
      );
    }
  }
  return { params, fields };
}

/**
 * The route's `list:`, checked against the route (GET, result ok, no resource
 * output, no input named like a list parameter). Sets the answer's rows when
 * the route has no shape and adds the list's query fields to `fields`.
 */
function resolveRouteList(
  c: RouteCheck,
  raw: RawRoute,
  rawList: RawList,
  scope: RouteScope,
  answer: RouteAnswer,
  fields: InputField[],
): Route['list'] {
  if (raw.method !== 'GET') c.fail(['method'], `a list route answers GET requests; change the method from ${raw.method} to GET`, 'value');
  if (raw.result !== 'ok') c.fail(['result'], `a list route answers 200 with a page; use "result: ok"`, 'value');
  if (raw.output !== undefined && answer.output !== null)
    c.fail(
      ['output'],
      `a list route's output is its page of ${rawList.resource} rows; remove "output", or declare a shape (e.g. { articles: "ArticleView[]", articlesCount: integer }) the handler builds from the page`,
    );
  for (const key of Object.keys(raw.input ?? {})) {
    if ((LIST_KEYS as readonly string[]).includes(key) || key.startsWith('filter_'))
      c.fail(['input', key], `"${key}" is a name the list adds to the input (limit, cursor, sort, filter_…); rename the field`);
  }
  if (scope.resources.has(rawList.resource) && !scope.resolved.has(rawList.resource)) {
    c.failed(); // the resource has errors of its own
    return null;
  }
  const resolved = resolveList(c.r, [...c.path, 'list'], rawList, scope.resolved);
  if (!resolved) {
    c.failed();
    return null;
  }
  // With a shape output, the handler builds the answer from the page; the list's rows (and their includes) are the page's.
  if (answer.shape === null) answer.output = { resource: resolved.list.resource, array: true };
  fields.push(...resolved.fields);
  return resolved.list;
}

/** The relations expanded in each row of the route's resource output or list (`include:`). */
function resolveRouteIncludes(c: RouteCheck, raw: RawRoute, scope: RouteScope, answer: RouteAnswer, list: Route['list']): Include[] {
  if (raw.include === undefined || raw.include.length === 0) return [];
  const rowsOf = answer.output?.resource ?? list?.resource;
  const resource = rowsOf !== undefined ? scope.resolved.get(rowsOf) : undefined;
  if (rowsOf === undefined) {
    if (answer.shape !== null)
      c.fail(['include'], 'include expands rows of a resource output; in a shape, declare the related row as a member (e.g. author: User)');
    else if (raw.output === undefined && raw.list === undefined)
      c.fail(['include'], 'include expands rows of the output; give the route an "output" (or a "list")');
    else c.failed(); // the output has an error of its own
    return [];
  }
  if (!resource) {
    c.failed(); // the resource has errors of its own
    return [];
  }
  const resolved = resolveIncludes(c.r, [...c.path, 'include'], raw.include, resource, scope.resolved);
  if (!resolved) c.failed();
  return resolved ?? [];
}

/** The route's rate limit and body limit: its own (`rateLimit: false` turns the group's off), else its group's, else null. */
function resolveLimits(c: RouteCheck, raw: RawRoute, group: Group | undefined): Pick<Route, 'rateLimit' | 'bodyLimit'> {
  const ownLimit = resolveRateLimit(c.r, [...c.path, 'rateLimit'], raw.rateLimit);
  if (raw.rateLimit !== undefined && raw.rateLimit !== false && ownLimit === undefined) c.failed();
  const ownBodyLimit = resolveBodyLimit(c.r, [...c.path, 'bodyLimit'], raw.bodyLimit);
  if (raw.bodyLimit !== undefined && ownBodyLimit === undefined) c.failed();
  return {
    rateLimit: ownLimit === false ? null : (ownLimit ?? group?.rateLimit ?? null),
    bodyLimit: ownBodyLimit ?? group?.bodyLimit ?? null,
  };
}

/** Two fields of one route must not read the same JSON member, form field, query key or header. */
function checkDistinctNames(r: Reporter, inputPath: (string | number)[], fields: readonly InputField[]): boolean {
  let ok = true;
  const seen = new Map<string, string>();
  for (const f of fields) {
    const names = [
      f.json !== undefined ? `JSON member "${f.json}"` : undefined,
      f.form !== undefined ? `form field "${f.form}"` : undefined,
      f.name !== undefined ? `${f.source} ${f.source === 'path' ? 'parameter' : 'name'} "${f.name}"` : undefined,
    ];
    for (const name of names) {
      if (name === undefined) continue;
      const other = seen.get(name);
      if (other !== undefined) {
        ok = false;
        r.error([...inputPath, f.key], `the ${name} is already bound to field "${other}"; bind each client name to one field`);
      }
      seen.set(name, f.key);
    }
  }
  return ok;
}

/** A resolved route with the reporter of the file declaring it. */
export interface DeclaredRoute {
  readonly route: Route;
  readonly r: Reporter;
}

/**
 * Checks across routes: one route per method and path shape (`/a/{x}` and
 * `/a/{y}` are the same), and distinct generated names (input types,
 * validator exports).
 * @param typeNames type names already taken in `generated/types.ts`, with who takes them.
 */
export function checkRoutes(declared: readonly DeclaredRoute[], typeNames: ReadonlyMap<string, string>): void {
  const byShape = new Map<string, Route>();
  const inputNames = new Map<string, Route>();
  const validators = new Map<string, Route>();
  for (const { route, r } of declared) {
    const shape = `${route.method} ${pathShape(route.path)}`;
    const first = byShape.get(shape);
    if (first) {
      const same = first.path === route.path ? '' : ` (${first.path} and ${route.path} match the same URLs)`;
      r.error(
        ['routes', route.name, 'path'],
        `${route.method} ${route.path} is already served by route "${first.name}" at ${formatPosition(first.origin)}${same}; change the method or the path`,
        'value',
      );
    } else {
      byShape.set(shape, route);
    }

    const typeName = inputTypeName(route.name);
    const previous = inputNames.get(typeName);
    const clash = previous ? `route "${previous.name}"` : typeNames.get(typeName);
    if (clash !== undefined) {
      r.error(
        ['routes', route.name],
        `route "${route.name}" would declare the type ${typeName}, already declared for ${clash}; rename the route`,
      );
    }
    inputNames.set(typeName, route);
    if (route.shape !== null && ownsOutputType(route.shape)) {
      for (const name of shapeTypeNames(outputTypeName(route.name))) {
        const taken = inputNames.get(name);
        const owner = taken ? `route "${taken.name}"` : typeNames.get(name);
        if (owner !== undefined)
          r.error(
            ['routes', route.name, 'output'],
            `route "${route.name}" would declare the type ${name}, already declared for ${owner}; rename the route`,
          );
        inputNames.set(name, route);
      }
    }

    if (route.input.some((f) => f.rules.length > 0)) {
      const exportName = validatorName(route.name);
      const other = validators.get(exportName);
      if (other) {
        r.error(
          ['routes', route.name],
          `route "${route.name}" would export the validator ${exportName}, already exported for route "${other.name}"; rename one of the routes`,
        );
      } else if (clashesWithValidatorInternals(exportName)) {
        r.error(
          ['routes', route.name],
          `route "${route.name}" would export the validator ${exportName}, a name the compiled validator code uses itself; rename the route`,
        );
      }
      validators.set(exportName, route);
    }
  }
}

/** Whether a shape output gets its own `<Route>Output` types: anything but a named shape or a list of one. */
export function ownsOutputType(shape: OutputShape): boolean {
  if (shape.nullable) return true;
  const named = shape.type.kind === 'array' ? shape.type.items : shape.type;
  return named.kind !== 'shape';
}
