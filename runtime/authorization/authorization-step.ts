/**
 * The `authorization()` setup step (docs/boot.md "Setup steps";
 * docs/authorization.md "Setting it up"): the app's policies as
 * `ctx.services.policies`, the boot checks of the route table against them,
 * and, with `AUDIT_DENIALS=true`, an audit entry for every refused request.
 */
import type { SetupStep } from '../app/setup-step.js';
import { SetupError } from '../app/errors.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { PolicyTable } from '../routing/policy-plan.js';
import { checkRoutePolicies } from './check-routes.js';
import type { PolicyDefinition } from './define-policy.js';
import { Policies, type Denial } from './policies.js';

declare module '../http/context.js' {
  interface Services {
    /** The app's policies; present once `authorization()` is set up. */
    readonly policies?: Policies;
  }
}

/** Options of {@link authorization}. */
export interface AuthorizationStepOptions {
  /** The policies of the schema: `policies` of `generated/policies.ts`. */
  readonly policies: PolicyTable;
  /** The actions written in TypeScript: `definePolicy(...)` results, one per policy (or more). */
  readonly definitions?: readonly PolicyDefinition[];
}

/** The audit action of a refused request (`AUDIT_DENIALS=true`). */
export const DENIAL_AUDIT_ACTION = 'authorization.denied';

/**
 * Policies as a setup step.
 *
 * Adds `ctx.services.policies` (the {@link Policies}), which the HTTP
 * pipeline uses for every route with an `authorize` plan, list routes,
 * included relations, `ctx.can` / `ctx.authorize` / `ctx.scope`, `it.can` in
 * views and the audit log's bulk writes. With `AUDIT_DENIALS=true` (an
 * `audit()` setting), `audit()` must come before it.
 *
 * @throws {BinderyError} `BINDERY_POLICY_INVALID` at boot when the definitions or the route table disagree with the policies.
 * @throws {SetupError} `BINDERY_SETUP_INVALID` when `AUDIT_DENIALS=true` and `audit()` is not set up before it.
 * @example setup: [audit({ tracked }), …, authorization({ policies, definitions: [usersPolicy] })]
 */
export function authorization(options: AuthorizationStepOptions): SetupStep {
  return {
    name: 'authorization',
    call: 'authorization()',
    setup(ctx) {
      const policies = new Policies(options.policies, options.definitions ?? [], { db: ctx.database.db });
      ctx.services.policies = policies;
      ctx.addRouteCheck((routes) => checkRoutePolicies(routes, policies));
      if (ctx.settings['AUDIT_DENIALS'] !== true) return;
      const audit = ctx.services.audit as AuditLog | undefined;
      if (audit === undefined)
        throw new SetupError(
          'AUDIT_DENIALS=true records refused requests in the audit log: put audit() before authorization() in the setup list.',
        );
      policies.onDenied((denial) => audit.record(denialEntry(denial)));
    },
  };
}

/** The audit entry of a denial: its subject the row (when there was one), its details what was refused — never the row's values. */
function denialEntry(denial: Denial): Parameters<AuditLog['record']>[0] {
  return {
    action: DENIAL_AUDIT_ACTION,
    subject: denial.key === null ? null : { type: denial.table, id: denial.key },
    details: {
      policy: denial.policy,
      action: denial.action,
      reason: denial.reason,
      status: denial.status,
      route: denial.route,
      ...(denial.ability !== undefined ? { ability: denial.ability } : {}),
    },
  };
}
