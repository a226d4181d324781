/**
 * The boot check of a route table against the app's policies
 * (docs/authorization.md "Routes"): every route's `authorize` plan, output
 * and included relations name policies and actions that exist, and list
 * routes and included relations have a scope to narrow their rows by.
 * Plugins' routes are checked too (it runs once every step has added its).
 */
import { BinderyError } from '../errors/bindery-error.js';
import type { IncludePlan, RouteTable } from '../routing/route-table.js';
import type { Policies } from './policies.js';

/** @throws {BinderyError} `BINDERY_POLICY_INVALID` listing every problem, each with the route's schema file. */
export function checkRoutePolicies(routes: RouteTable, policies: Policies): void {
  const problems: string[] = [];
  const at = (route: { name: string; origin: string }) => `route "${route.name}" (${route.origin})`;
  const known = (name: string) => Object.hasOwn(policies.table, name);
  for (const route of routes) {
    const plan = route.authorize;
    if (plan !== undefined) {
      const name = `${plan.policy}.${plan.action}`;
      if (!policies.has(name)) problems.push(`${at(route)} needs ${name}, which no policy declares`);
      else if (route.list !== undefined && !policies.actionPlan(name).scoped)
        problems.push(`${at(route)} lists rows, but ${name} has no scope to narrow them by`);
    }
    const outputPolicy = route.output?.policy;
    if (outputPolicy !== undefined && !known(outputPolicy))
      problems.push(`${at(route)} outputs rows of the unknown policy "${outputPolicy}"`);
    for (const inc of flatIncludes(route.include ?? [])) {
      if (inc.policy === undefined) continue;
      const view = `${inc.policy}.view`;
      if (!known(inc.policy)) problems.push(`${at(route)} includes ${inc.name} of the unknown policy "${inc.policy}"`);
      else if (policies.has(view) && !policies.actionPlan(view).scoped)
        problems.push(`${at(route)} includes ${inc.name}, but ${view} has no scope to narrow the related rows by`);
    }
  }
  if (problems.length > 0) {
    throw new BinderyError(
      'BINDERY_POLICY_INVALID',
      `The route table and the policies disagree:\n${problems.map((p) => `  - ${p}`).join('\n')}\nRegenerate (bindery generate) with the policies given to authorization().`,
    );
  }
}

/** Every include plan of a tree (`author.following` nests under `author`), depth first. */
export function flatIncludes(include: readonly IncludePlan[]): IncludePlan[] {
  return include.flatMap((i) => [i, ...flatIncludes(i.include ?? [])]);
}
