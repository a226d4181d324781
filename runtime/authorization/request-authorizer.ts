/**
 * Authorization inside a request (docs/authorization.md "In handlers and
 * views"): what `ctx.can`, `ctx.authorize` and `ctx.scope` do, and the
 * check of a route's `authorize` plan — its row loaded, the rule applied,
 * the row handed to the handler.
 */
import { sql } from 'kysely';
import type { AnyKysely } from '../db/any-kysely.js';
import { compiledQuery } from '../db/compiled-query.js';
import type { AuthorizePlan } from '../routing/policy-plan.js';
import { refuse, rowNotFound, type DenialContext } from './denials.js';
import type { Decision, Policies } from './policies.js';
import type { Row } from './rules.js';

/** `documents.update` → `['documents', 'update']`. */
function split(name: string): [string, string] {
  const dot = name.lastIndexOf('.');
  return dot === -1 ? [name, ''] : [name.slice(0, dot), name.slice(dot + 1)];
}

/**
 * Whether the caller's rule lets them `view` `row` of policy `policy` (a
 * policy without a `view` action lets no one view its rows). A bearer
 * token's abilities do not count here: the rows are the route's business.
 */
export async function mayView(ctx: DenialContext, policies: Policies, policy: string, row: Row): Promise<boolean> {
  const view = `${policy}.view`;
  return policies.has(view) && (await policies.decide(ctx.auth, view, row, { ability: false })).allowed;
}

/**
 * `ctx.authorize(name, row?)`: resolves when allowed, else throws the
 * refusal (401, 403 or 404; logged, and recorded with `AUDIT_DENIALS=true`).
 * @param route the route whose own check this is, or null.
 * @param shownKey the key as the request named the row (a slug, say), for the 404 of a hidden row; default its primary key.
 * @throws {HttpError} the refusal; {@link BinderyError} `BINDERY_POLICY_INVALID` for an unknown action.
 */
export async function authorizeRequest(
  ctx: DenialContext,
  policies: Policies,
  name: string,
  row?: Row,
  route: string | null = null,
  shownKey?: unknown,
): Promise<void> {
  await authorizeNow(ctx, policies, name, row, route, shownKey);
}

/** {@link authorizeRequest} without a promise when the decision needs no waiting: `undefined` when allowed at once. */
function authorizeNow(
  ctx: DenialContext,
  policies: Policies,
  name: string,
  row: Row | undefined,
  route: string | null,
  shownKey?: unknown,
): Promise<void> | undefined {
  const decision = policies.decideReady(ctx.auth, name, row);
  if (decision === undefined)
    return policies
      .decide(ctx.auth, name, row)
      .then((later) => (later.allowed ? undefined : throwRefusal(ctx, policies, name, later, row, route, shownKey)));
  if (decision.allowed) return undefined;
  return throwRefusal(ctx, policies, name, decision, row, route, shownKey);
}

/** Throw the refusal of a denied decision: 403, or 404 when the row should stay hidden (docs/authorization.md). */
async function throwRefusal(
  ctx: DenialContext,
  policies: Policies,
  name: string,
  decision: Extract<Decision, { allowed: false }>,
  row: Row | undefined,
  route: string | null,
  shownKey: unknown,
): Promise<never> {
  const [policy, action] = split(name);
  const plan = policies.policy(policy);
  const key = row === undefined ? null : String(row[plan.primaryKey]);
  const shown = row === undefined ? null : String(shownKey ?? key);
  // A rule's refusal of a known row hides it when the caller may not see it either; refusals before any row say nothing of one.
  const hide =
    row !== undefined &&
    plan.hideExistence &&
    decision.reason !== 'ability' &&
    (action === 'view' || !(await mayView(ctx, policies, policy, row)));
  throw await refuse(ctx, policies, { policy, action, decision, table: plan.table, key, shown, label: plan.label, hide, route });
}

/** The check of one route's `authorize` plan, compiled at boot: resolves to the target row (or undefined without one). */
export type RouteAuthorization = (ctx: DenialContext, input: Readonly<Record<string, unknown>>) => Promise<Row | undefined>;

/**
 * Compile the check of `plan` for route `routeName`.
 *
 * Without a target, the rule's parts that do not depend on a row decide
 * (the rows themselves are narrowed by the scope). With one: the parts that
 * do not depend on the row first (a guest or a token without the ability is
 * refused before anything is read, so nothing tells which rows exist), then
 * the row is read (404 when there is none), then the rule decides on it.
 *
 * @throws {BinderyError} `BINDERY_POLICY_INVALID` at boot when the plan names an unknown policy or action.
 */
export function compileRouteAuthorization(routeName: string, plan: AuthorizePlan, policies: Policies, db: AnyKysely): RouteAuthorization {
  const name = `${plan.policy}.${plan.action}`;
  policies.actionPlan(name);
  const policy = policies.policy(plan.policy);
  const target = plan.target;
  if (target === undefined) {
    return async (ctx) => {
      await authorizeRequest(ctx, policies, name, undefined, routeName);
      return undefined;
    };
  }
  const column = sql.ref(`${policy.table}.${target.column}`);
  const live = !target.withDeleted && policy.softDelete !== null ? sql.ref(`${policy.table}.${policy.softDelete}`) : null;
  // Built and compiled once, run on the pool (docs/database.md "Compiled queries"): the same SQL per request.
  const loadRow = compiledQuery((q, key: unknown) => {
    const query = q.selectFrom(policy.table).selectAll().where(column, '=', key);
    return live === null ? query : query.where(live, 'is', null);
  });
  return async (ctx, input) => {
    const allowed = authorizeNow(ctx, policies, name, undefined, routeName);
    if (allowed !== undefined) await allowed;
    const key = input[target.field];
    const [row] = (await loadRow(db, key)) as (Row | undefined)[];
    if (row === undefined) throw rowNotFound(policy.label, key);
    const checked = authorizeNow(ctx, policies, name, row, routeName, key);
    if (checked !== undefined) await checked;
    return row;
  };
}

/**
 * The rows of a handler's list output that the caller may `view` (the
 * others are left out): the net under routes that return rows of a
 * resource with a policy without listing them through a scope.
 */
export async function viewableRows(ctx: DenialContext, policies: Policies, policy: string, rows: readonly unknown[]): Promise<unknown[]> {
  const kept: unknown[] = [];
  for (const row of rows) {
    if (row !== null && typeof row === 'object' && (await mayView(ctx, policies, policy, row as Row))) kept.push(row);
  }
  return kept;
}
