/**
 * Authorization (docs/authorization.md): policies declared once — in the
 * schema (`policies:`) or in TypeScript (`definePolicy`) — and enforced on
 * every route, list, included relation and bulk write. The
 * `authorization()` setup step, `definePolicy`, the `Policies` registry
 * (`ctx.services.policies`) and the types generated code fills in.
 */
export { authorization, DENIAL_AUDIT_ACTION, type AuthorizationStepOptions } from './authorization-step.js';
export {
  definePolicy,
  type AnyPolicyCode,
  type PolicyAction,
  type PolicyCheck,
  type PolicyCode,
  type PolicyCodeAction,
  type PolicyDatabase,
  type PolicyDefinition,
  type PolicyName,
  type PolicyRowOf,
  type PolicyTypes,
  type PolicyUser,
} from './define-policy.js';
export {
  Policies,
  type Decision,
  type Denial,
  type DenialListener,
  type DenialReason,
  type PoliciesOptions,
  type PolicySubject,
} from './policies.js';
export { evaluateRule, type RuleCaller, type Verdict } from './rules.js';
export { ALL_ROWS, NO_ROWS, ruleScope, type RowScope } from './scopes.js';
export type {
  AuthorizePlan,
  AuthorizeTargetPlan,
  ColumnConditions,
  PolicyActionPlan,
  PolicyConditions,
  PolicyPlan,
  PolicyRule,
  PolicyTable,
  PolicyValue,
} from '../routing/policy-plan.js';
