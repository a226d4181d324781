/**
 * Authorization (docs/authorization.md): policies declared once — in the
 * schema (`policies:`) or in TypeScript (`definePolicy`) — and enforced on
 * every route, list, included relation and bulk write. The
 * `authorization()` setup step, `definePolicy`, the `Policies` registry
 * (`ctx.services.policies`) and the types generated code fills in.
 */
export { authorization, type AuthorizationStepOptions } from './authorization-step.js';
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
  type DenialReason,
  type PolicySubject,
} from './policies.js';
export type { PolicyTable } from '../routing/policy-plan.js';
