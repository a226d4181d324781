import type { PolicyAction, PolicyRowOf } from '../authorization/define-policy.js';
import type { RowScope } from '../authorization/scopes.js';

declare module './context.js' {
  interface RequestContext {
    /**
     * May the caller do `action` (`documents.update`) to `row` — or, without
     * a row, to some row? Bearer tokens also need the action's ability
     * (docs/authorization.md "In handlers and views").
     * @throws {BinderyError} `BINDERY_SERVICE_NOT_SET_UP` without `authorization()`; `BINDERY_POLICY_INVALID` for an unknown action.
     */
    can<A extends PolicyAction>(action: A, row?: PolicyRowOf<A>): Promise<boolean>;
    /**
     * Resolves when the caller may do `action` to `row`; else throws the
     * refusal the route's own check would (401, 403, or 404 where the policy
     * hides existence), logged (and recorded with `AUDIT_DENIALS=true`).
     */
    authorize<A extends PolicyAction>(action: A, row?: PolicyRowOf<A>): Promise<void>;
    /**
     * The rows the caller may do `action` to, as a condition for Kysely's
     * `where`: `db.selectFrom('documents').selectAll().where(await ctx.scope('documents.view'))`.
     * @throws {BinderyError} `BINDERY_POLICY_UNSCOPED` for a code action without a scope.
     */
    scope(action: PolicyAction): Promise<RowScope>;
  }
}

export {};
