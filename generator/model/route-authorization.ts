/**
 * Which policy action each route needs (docs/authorization.md "Routes"):
 * the one its `authorize:` names, or the one its kind implies when the
 * route belongs to a policy (its name starts with the policy's name, or it
 * outputs or lists the policy's resource); the row it acts on (a path field
 * holding the primary key or a unique column); and the checks that a list,
 * an included relation or a guest-only group can work with the rule.
 */
import type { RawAuthorize, RawRoute } from '../language/raw.js';
import type { PolicyRule } from '../../runtime/routing/policy-plan.js';
import type { DataPath } from '../load/node-position.js';
import { didYouMean } from '../suggest.js';
import type { Route } from './model.js';
import type { Policy, PolicyAction, RouteAuthorize } from './policy-model.js';
import { rowIncludes } from './includes.js';
import type { Reporter } from './reporter.js';

/** A route to authorize: resolved, with its YAML and the reporter of its file. */
export interface AuthorizableRoute {
  readonly route: Route;
  readonly raw: RawRoute;
  readonly r: Reporter;
}

/** Middleware names that sign a request in (runtime/auth). */
const SIGNING_IN = ['auth', 'token'];

/**
 * The authorization of every route (null: none); errors go to each route's reporter.
 * @param declared the names of every declared policy, those with errors of their own included (a route naming one is not reported again).
 * @returns by route name.
 */
export function authorizeRoutes(
  routes: readonly AuthorizableRoute[],
  policies: readonly Policy[],
  declared: ReadonlySet<string> = new Set(policies.map((p) => p.name)),
): Map<string, RouteAuthorize | null> {
  const byName = new Map(policies.map((p) => [p.name, p]));
  const byResource = new Map(policies.filter((p) => p.resource !== null).map((p) => [p.resource!, p]));
  const out = new Map<string, RouteAuthorize | null>();
  for (const { route, raw, r } of routes) {
    const at: DataPath = ['routes', route.name, 'authorize'];
    checkRelated(r, route, byResource);
    const resolved = resolveOne(r, at, route, raw.authorize, byName, byResource, declared);
    out.set(route.name, resolved ?? null);
  }
  return out;
}

function resolveOne(
  r: Reporter,
  at: DataPath,
  route: Route,
  raw: RawAuthorize | undefined,
  byName: ReadonlyMap<string, Policy>,
  byResource: ReadonlyMap<string, Policy>,
  declared: ReadonlySet<string>,
): RouteAuthorize | undefined {
  if (raw === false) return undefined;
  if (raw === undefined) {
    const prefix = route.name.split('.')[0]!;
    const resource = route.list?.resource ?? route.output?.resource;
    const policy = byName.get(prefix) ?? (resource !== undefined ? byResource.get(resource) : undefined);
    if (policy === undefined) return undefined;
    return inferred(r, route, policy);
  }
  const text = typeof raw === 'string' ? raw : raw.action;
  const actionAt: DataPath = typeof raw === 'string' ? at : [...at, 'action'];
  const dot = text.lastIndexOf('.');
  const policyName = text.slice(0, dot);
  const actionName = text.slice(dot + 1);
  const policy = byName.get(policyName);
  if (policy === undefined) {
    if (!declared.has(policyName))
      r.error(actionAt, `unknown policy "${policyName}"${didYouMean(policyName, declared)}; declare it under "policies:"`, 'value');
    return undefined;
  }
  const action = policy.actions.find((a) => a.name === actionName);
  if (action === undefined) {
    r.error(
      actionAt,
      `unknown action "${actionName}" of the policy ${policy.name}${didYouMean(
        actionName,
        policy.actions.map((a) => a.name),
      )}; its actions: ${policy.actions.map((a) => a.name).join(', ')}`,
      'value',
    );
    return undefined;
  }
  const options = typeof raw === 'string' ? {} : raw;
  const target = resolveTarget(r, at, route, policy, options);
  if (target === null) return undefined;
  const result: RouteAuthorize = { policy: policy.name, action: action.name, target: target ?? null, inferred: false };
  return checkUse(r, at, route, policy, action, result) ? result : undefined;
}

/** The action a route of `policy` needs by its kind, or an error saying to name it. */
function inferred(r: Reporter, route: Route, policy: Policy): RouteAuthorize | undefined {
  const at: DataPath = ['routes', route.name];
  const target = route.list !== null ? undefined : inferTarget(route, policy);
  let name: string | undefined;
  if (route.list !== null) name = 'view';
  else if (target !== undefined && route.method === 'GET') name = 'view';
  else if (target !== undefined && (route.method === 'PATCH' || route.method === 'PUT')) name = 'update';
  else if (target !== undefined && route.method === 'DELETE') name = 'delete';
  else if (target === undefined && route.method === 'POST' && route.result === 'created') name = 'create';
  if (name === undefined) {
    r.error(
      at,
      `route "${route.name}" belongs to the policy ${policy.name} (by its ${route.name.startsWith(`${policy.name}.`) ? 'name' : 'output'}), but its kind (${route.method}${target ? ' of one row' : ''}, result ${route.result}) implies no action; name it, e.g. "authorize: ${policy.name}.${route.name.split('.').pop()}", or write "authorize: false" for a route without a policy`,
    );
    return undefined;
  }
  const action = policy.actions.find((a) => a.name === name);
  if (action === undefined) {
    r.error(
      at,
      `route "${route.name}" belongs to the policy ${policy.name} and its kind implies the action "${name}", which the policy does not declare; declare it (e.g. "${name}: signedIn"), name another with "authorize:", or write "authorize: false"`,
    );
    return undefined;
  }
  const result: RouteAuthorize = { policy: policy.name, action: name, target: target ?? null, inferred: true };
  return checkUse(r, at, route, policy, action, result) ? result : undefined;
}

/** The path (or query) field holding the primary key or a unique column of the policy's rows, primary key first. */
function inferTarget(route: Route, policy: Policy): RouteAuthorize['target'] | undefined {
  const candidates = route.input.filter((f) => f.source === 'path' && policy.columns.get(f.key)?.unique === true);
  const field = candidates.find((f) => f.key === policy.primaryKey) ?? candidates[0];
  return field === undefined ? undefined : { field: field.key, column: field.key, withDeleted: false };
}

/** The long form's target: undefined for none, null on an error. */
function resolveTarget(
  r: Reporter,
  at: DataPath,
  route: Route,
  policy: Policy,
  options: { readonly target?: string | false; readonly column?: string; readonly withDeleted?: boolean },
): RouteAuthorize['target'] | undefined | null {
  let target: RouteAuthorize['target'] | undefined;
  if (options.target === false) target = undefined;
  else if (options.target === undefined && options.column === undefined)
    target = route.list !== null ? undefined : inferTarget(route, policy);
  else {
    const field = options.target ?? options.column!;
    const column = options.column ?? field;
    const input = route.input.find((f) => f.key === field);
    const info = policy.columns.get(column);
    if (input === undefined) {
      r.error(
        [...at, options.target !== undefined ? 'target' : 'column'],
        `the route has no input field "${field}"${didYouMean(
          field,
          route.input.map((f) => f.key),
        )} to find the row by`,
        'value',
      );
      return null;
    }
    if (info === undefined || !info.unique) {
      const unique = [...policy.columns.values()].filter((c) => c.unique).map((c) => c.name);
      r.error(
        [...at, options.column !== undefined ? 'column' : 'target'],
        `${info === undefined ? `unknown column "${column}"` : `"${column}" is not a unique column`} of ${policy.label}; a row is found by ${unique.join(' or ')}`,
        'value',
      );
      return null;
    }
    target = { field, column, withDeleted: false };
  }
  if (options.withDeleted === true) {
    if (target === undefined || target === null) {
      r.error([...at, 'withDeleted'], 'withDeleted applies to the row the route acts on, and this route has none (give "target")');
      return null;
    }
    if (policy.softDelete === null) {
      r.error([...at, 'withDeleted'], `${policy.label} has no soft delete; remove withDeleted`);
      return null;
    }
    return { field: target.field, column: target.column, withDeleted: true };
  }
  return target;
}

/** A list needs a scoped action of its own resource; a route without sign-in middleware needs a rule that can allow guests. */
function checkUse(r: Reporter, at: DataPath, route: Route, policy: Policy, action: PolicyAction, result: RouteAuthorize): boolean {
  const name = `${policy.name}.${action.name}`;
  if (route.list !== null) {
    if (route.list.resource !== policy.resource) {
      r.error(at, `${name} governs ${policy.label} rows, but the route lists ${route.list.resource}; name an action of its policy`);
      return false;
    }
    if (result.target !== null) {
      r.error(at, 'a list route acts on many rows: its policy narrows them by a scope, so it takes no target; remove "target"');
      return false;
    }
    if (!action.scoped) {
      r.error(
        at,
        `${name} is written in TypeScript without a scope, which a list route cannot be narrowed by (a scope that cannot be expressed for a list); mark it { code: true, scope: true } and give definePolicy a scope, or use a declarative rule`,
      );
      return false;
    }
  }
  if (!route.middleware.some((m) => SIGNING_IN.includes(m)) && !allowsGuests(action.rule)) {
    r.error(
      at,
      `${name} never allows a guest, and every request to this route is one: its ${route.group ? `group "${route.group}"` : 'middleware'} runs neither "auth" nor "token"; add one to the group's middleware`,
    );
    return false;
  }
  return true;
}

/** Included relations and listed outputs of a resource with a policy are narrowed by its `view`: it must exist and have a scope. */
function checkRelated(r: Reporter, route: Route, byResource: ReadonlyMap<string, Policy>): void {
  route.include.forEach((root, i) => {
    for (const inc of rowIncludes([root])) {
      const policy = byResource.get(inc.resource);
      const view = policy?.actions.find((a) => a.name === 'view');
      if (policy === undefined) continue;
      if (view === undefined || !view.scoped)
        r.error(
          ['routes', route.name, 'include', i],
          `${inc.resource} rows are governed by the policy ${policy.name}, whose view action ${view === undefined ? 'is not declared' : 'has no scope'}, so "${inc.name}" could not be narrowed to the rows the caller may see; ${view === undefined ? 'declare view' : 'mark it { code: true, scope: true }'}`,
          'value',
        );
    }
  });
  const output = route.output;
  if (output?.array === true && route.list === null) {
    const policy = byResource.get(output.resource);
    if (policy !== undefined && !policy.actions.some((a) => a.name === 'view'))
      r.error(
        ['routes', route.name, 'output'],
        `the rows of ${output.resource} returned are kept to those the caller may view, but the policy ${policy.name} declares no view action; declare one`,
        'value',
      );
  }
}

/** Whether some guest request could be allowed by `rule` (a rule on the row alone, or `public`). */
export function allowsGuests(rule: PolicyRule | 'code'): boolean {
  if (rule === 'public') return true;
  if (typeof rule === 'string') return false;
  if (rule.owner !== undefined || rule.user !== undefined) return false;
  return rule.anyOf === undefined || rule.anyOf.some(allowsGuests);
}
