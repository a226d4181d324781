/**
 * A revert's authorization by the resource's policy (docs/audit.md "Revert",
 * docs/authorization.md): the hook a request hands to `revertEntry`,
 * `revertBulk` and `revertRequest`.
 */
import type { Policies } from '../../authorization/policies.js';
import type { RevertAuthorize } from './run.js';

/** What {@link policyAuthorizer} needs of a request context (`ctx`). */
export interface PolicyRequest {
  /** `ctx.authorize`: resolves when allowed, else throws the policy's refusal (403, or 404 when the policy hides existence). */
  authorize(action: string, row?: unknown): Promise<void>;
  readonly services: { readonly policies?: Policies | undefined };
}

/**
 * The revert hook of a request: each write of a revert is checked with
 * `ctx.authorize('<policy>.<action>', row)` — the action the revert performs
 * (`update`, `restore`, `create`, `delete`), and `revert` when the policy
 * declares one — so a refusal is the policy's own answer (403, or 404 for a
 * policy with `hideExistence` when the caller may not view the row either),
 * logged and recorded as its denials are. A table without a policy is not
 * checked; a policy without the performed action refuses it (403).
 *
 * @example await revertEntry(ctx.services.audit, { kind: 'entry', id }, { authorize: policyAuthorizer(ctx) })
 */
export function policyAuthorizer(ctx: PolicyRequest): RevertAuthorize {
  return async (action, table, row) => {
    const policies = ctx.services.policies;
    const policy = policies?.policyOfTable(table);
    if (policies === undefined || policy === undefined) return true;
    const name = `${policy}.${action}`;
    if (!policies.has(name)) return action === 'revert';
    await ctx.authorize(name, row);
    return true;
  };
}
