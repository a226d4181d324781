/**
 * What a list page needs besides its query (docs/schema-language.md "List
 * routes", "Offset lists"): the request context it runs in, the handler's
 * scope joined with the route's policy scope, and the included paths of the
 * page's rows — shared by the cursor and offset runners.
 */
import type { SelectQueryBuilder } from 'kysely';
import type { RouteDefinition } from '../../routing/route-table.js';
import { loadIncludes } from '../includes.js';
import type { AnyKysely } from '../../db/any-kysely.js';
import type { Policies, PolicySubject } from '../../authorization/policies.js';
import { NO_ROWS, type RowScope } from '../../authorization/scopes.js';
import { GUEST } from '../../context/request-auth.js';
import { BinderyError } from '../../errors/bindery-error.js';

/**
 * What {@link runList} needs of the request context: `services.db` (Kysely)
 * and `services.cursors` (the app's {@link CursorSealer}, added at boot).
 */
export interface ListContext {
  readonly services: object;
  /** Who asks (`ctx.auth`): the list route's policy narrows the rows to those they may view. Absent: a guest. */
  readonly auth?: PolicySubject;
}

/**
 * Narrows the rows a list may show (e.g. to the signed-in user's): gets the
 * query before any selection, returns it with its own `where`s.
 * @example (q) => q.where('owner_id', '=', userId)
 */
// biome-ignore lint/complexity/noBannedTypes: `{}` is Kysely's own type for a query that has selected nothing yet.
export type ListScope<DB, TB extends keyof DB & string> = (query: SelectQueryBuilder<DB, TB, {}>) => SelectQueryBuilder<DB, TB, {}>;

/**
 * The caller's scope of each policy's `view` action, for narrowing included
 * rows (no rows for a policy without one); `undefined` when the app has no
 * policies, so nothing is narrowed.
 */
export function viewScopeOf(policies: Policies | undefined, auth: PolicySubject): ((policy: string) => Promise<RowScope>) | undefined {
  if (policies === undefined) return undefined;
  return (policy) =>
    policies.has(`${policy}.view`) ? policies.scope(auth, `${policy}.view`, { ability: false }) : Promise.resolve(NO_ROWS);
}

/** The included paths of a page's rows, narrowed by the related resources' `view` scopes for the caller. */
export async function loadPageIncludes(
  ctx: ListContext,
  route: RouteDefinition,
  db: AnyKysely,
  page: readonly Record<string, unknown>[],
): Promise<void> {
  if (route.include === undefined || route.include.length === 0) return;
  const policies = (ctx.services as { policies?: Policies }).policies;
  const auth = ctx.auth ?? GUEST;
  const scopeOf = viewScopeOf(policies, auth);
  await loadIncludes(db, route.include, page, scopeOf, auth.id);
}

/** The handler's scope with the route's policy scope after it (both must hold). */
export async function withPolicyScope(
  route: RouteDefinition,
  policies: Policies | undefined,
  auth: PolicySubject,
  // biome-ignore lint/suspicious/noExplicitAny: see runList.
  scope: ListScope<any, any> | undefined,
  // biome-ignore lint/suspicious/noExplicitAny: see runList.
): Promise<ListScope<any, any> | undefined> {
  const plan = route.authorize;
  if (plan === undefined) return scope;
  if (policies === undefined) {
    throw new BinderyError(
      'BINDERY_SERVICE_NOT_SET_UP',
      `runList: route "${route.name}" lists rows of the policy ${plan.policy}, but the app has no policies: add authorization({ policies }) to the setup list of app/main.ts.`,
    );
  }
  const condition = await policies.scope(auth, `${plan.policy}.${plan.action}`);
  return scope === undefined ? (q) => q.where(condition) : (q) => scope(q).where(condition);
}
