/**
 * The policy parts of the route table (`generated/routes.ts`;
 * docs/authorization.md): a route's `authorize` plan, and the policy of the
 * resource of its output rows and included relations.
 */
import type { Model, Route } from '../../model/model.js';
import type { Literal } from '../ts-literal.js';

/** The policy name of each resource that has one. */
export function policyByResource(model: Model): ReadonlyMap<string, string> {
  return new Map(model.policies.filter((p) => p.resource !== null).map((p) => [p.resource!, p.name]));
}

/** The route's `authorize` member (`AuthorizePlan`), or nothing. */
export function authorizeLiteral(route: Route): { authorize?: Literal } {
  const a = route.authorize;
  if (a === null) return {};
  return {
    authorize: {
      policy: a.policy,
      action: a.action,
      ...(a.target !== null ? { target: { field: a.target.field, column: a.target.column, withDeleted: a.target.withDeleted } } : {}),
    },
  };
}

/** `{ policy }` for a resource with a policy, else nothing. */
export function policyMember(resource: string, policies: ReadonlyMap<string, string>): { policy?: string } {
  const policy = policies.get(resource);
  return policy === undefined ? {} : { policy };
}

/** The row type a route's handler gets as its target (third argument), or null for a route without one. */
export function targetRowType(route: Route, model: Model): { readonly name: string; readonly entry?: string } | null {
  const a = route.authorize;
  if (a === null || a.target === null) return null;
  const policy = model.policies.find((p) => p.name === a.policy)!;
  return policy.rowType.entry === undefined ? { name: policy.rowType.name } : { name: policy.rowType.name, entry: policy.rowType.entry };
}
