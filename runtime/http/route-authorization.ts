/**
 * The route pipeline's authorization stage (docs/authorization.md "Routes";
 * ARCHITECTURE.md "Request flow", between binding and the rules): a route's
 * `authorize` plan compiled at boot, the rows its handler outputs kept to
 * those the caller may view, and the scopes of its included relations.
 */
import type { Policies } from '../authorization/policies.js';
import { flatIncludes } from '../authorization/check-routes.js';
import { compileRouteAuthorization, viewableRows, type RouteAuthorization } from '../authorization/request-authorizer.js';
import { NO_ROWS, type RowScope } from '../authorization/scopes.js';
import type { AnyKysely } from '../db/any-kysely.js';
import { BinderyError } from '../errors/bindery-error.js';
import { isStreamResult, isTaggedResult, mapBatches, RESULT } from '../results/result.js';
import type { RouteDefinition } from '../routing/route-table.js';
import type { Services } from './context.js';
import type { HttpRequestContext } from './request-context.js';

/**
 * The handler function of any route, as the pipeline wraps and calls it:
 * with the input its route bound and validated, the request context, and
 * its target row (or undefined). A route's typed handler (`AnyRouteHandler`, `handler.ts`) is one.
 */
export type AnyHandle = (input: unknown, ctx: HttpRequestContext, target: unknown) => unknown;

/** The app's policies, or undefined without `authorization()`. */
export function policiesOf(services: Services): Policies | undefined {
  return (services as { policies?: Policies }).policies;
}

/**
 * The authorization stage of `route`, or null when it has no `authorize` plan.
 * @throws {BinderyError} `BINDERY_SERVICE_NOT_SET_UP` at boot when the route has a plan (or outputs or includes rows of a resource with a policy) and the app no `authorization()`; `BINDERY_POLICY_INVALID` for an unknown action.
 */
export function compileAuthorizationStage(route: RouteDefinition, services: Services): RouteAuthorization | null {
  const plan = route.authorize;
  const policies = policiesOf(services);
  const needs =
    plan !== undefined
      ? `${plan.policy}.${plan.action}`
      : (route.output?.policy ?? flatIncludes(route.include ?? []).find((i) => i.policy !== undefined)?.policy ?? null);
  if (needs !== null && policies === undefined) {
    throw new BinderyError(
      'BINDERY_SERVICE_NOT_SET_UP',
      `Route "${route.name}" (${route.origin}) is governed by the policy ${needs}, but the app has no policies: add authorization({ policies }) (policies from generated/policies.ts) to the setup list of app/main.ts.`,
    );
  }
  if (plan === undefined || policies === undefined) return null;
  return compileRouteAuthorization(route.name, plan, policies, (services as unknown as { db: AnyKysely }).db);
}

/**
 * The scope of a related resource's rows for the caller (`<policy>.view`;
 * none when the policy has no view action), for `loadIncludes`.
 */
export function includeScopes(ctx: HttpRequestContext): ((policy: string) => Promise<RowScope>) | undefined {
  const policies = policiesOf(ctx.services);
  if (policies === undefined) return undefined;
  return (policy) =>
    policies.has(`${policy}.view`) ? policies.scope(ctx.auth, `${policy}.view`, { ability: false }) : Promise.resolve(NO_ROWS);
}

/**
 * The handler of a route returning a list of a resource with a policy (not
 * a list route: those are narrowed by their scope): rows the caller may not
 * `view` are left out of its output (of a streamed answer, batch by batch).
 */
export function withViewableOutput(route: RouteDefinition, services: Services, handle: AnyHandle): AnyHandle {
  const policy = route.output?.policy;
  const policies = policiesOf(services);
  if (policy === undefined || policies === undefined || route.list !== undefined || route.output?.array !== true) return handle;
  return async (input, ctx: HttpRequestContext, target) => {
    const value = await handle(input, ctx, target);
    if (Array.isArray(value)) return viewableRows(ctx, policies, policy, value);
    // A streamed answer: each batch, as it is read.
    if (isStreamResult(value)) return mapBatches(value, (rows) => viewableRows(ctx, policies, policy, rows));
    if (isTaggedResult(value) && (value[RESULT] === 'json' || value[RESULT] === 'created')) {
      const body = (value as { body: unknown }).body;
      if (Array.isArray(body)) return { ...value, body: await viewableRows(ctx, policies, policy, body) };
    }
    return value;
  };
}
