/**
 * The boot check joining the generated policies with the app's
 * `definePolicy` definitions (docs/authorization.md "Writing a policy in
 * TypeScript"): every `code` action has its function, every function an
 * action marked `code`, every promised scope is given.
 */
import { BinderyError } from '../errors/bindery-error.js';
import type { PolicyTable } from '../routing/policy-plan.js';
import { closest } from '../support/closest.js';
import type { AnyPolicyCode, PolicyDefinition } from './define-policy.js';

function didYouMean(name: string, candidates: readonly string[]): string {
  const hint = closest(name, candidates);
  return hint === undefined ? '' : ` (did you mean "${hint}"?)`;
}

/**
 * The TypeScript actions by qualified name (`documents.archive`).
 * @throws {BinderyError} `BINDERY_POLICY_INVALID` listing every problem.
 */
export function checkDefinitions(table: PolicyTable, definitions: readonly PolicyDefinition[]): Map<string, AnyPolicyCode> {
  const problems: string[] = [];
  const code = new Map<string, AnyPolicyCode>();
  for (const definition of definitions) {
    const plan = Object.hasOwn(table, definition.policy) ? table[definition.policy] : undefined;
    if (plan === undefined) {
      problems.push(
        `definePolicy(${JSON.stringify(definition.policy)}) names no policy of the schema${didYouMean(definition.policy, Object.keys(table))}; declare it under "policies:" in schema/*.yaml`,
      );
      continue;
    }
    for (const [action, fn] of Object.entries(definition.actions)) {
      const name = `${definition.policy}.${action}`;
      const actionPlan = Object.hasOwn(plan.actions, action) ? plan.actions[action] : undefined;
      if (actionPlan === undefined) {
        problems.push(
          `definePolicy(${JSON.stringify(definition.policy)}) gives the action "${action}", which the policy does not declare${didYouMean(action, Object.keys(plan.actions))}; add "${action}: code" to the policy in the schema`,
        );
      } else if (actionPlan.rule !== 'code') {
        problems.push(`${name} has a rule in the schema; mark it "code" there to write it in TypeScript, or drop it from definePolicy`);
      } else if (code.has(name)) {
        problems.push(`${name} is given by two definePolicy calls; keep one`);
      } else if (
        typeof fn !== 'function' &&
        (typeof fn !== 'object' || fn === null || (fn.check === undefined && fn.scope === undefined))
      ) {
        problems.push(`${name} needs a function (user, row) => boolean, or { check, scope }`);
      } else if (actionPlan.scoped && (typeof fn === 'function' || fn.scope === undefined)) {
        problems.push(
          `${name} is marked { code: true, scope: true } in the schema, so definePolicy must give it a scope: { check, scope: (user, eb) => … }`,
        );
      } else {
        code.set(name, fn);
      }
    }
  }
  for (const [policy, plan] of Object.entries(table)) {
    for (const [action, actionPlan] of Object.entries(plan.actions)) {
      const name = `${policy}.${action}`;
      if (actionPlan.rule === 'code' && !code.has(name) && !problems.some((p) => p.startsWith(name)))
        problems.push(
          `${name} is marked "code" in the schema, but no definePolicy(${JSON.stringify(policy)}, { ${action}: … }) was given to authorization()`,
        );
    }
  }
  if (problems.length > 0) {
    throw new BinderyError(
      'BINDERY_POLICY_INVALID',
      `The policies and their TypeScript definitions disagree:\n${problems.map((p) => `  - ${p}`).join('\n')}\nSee docs/authorization.md "Writing a policy in TypeScript".`,
    );
  }
  return code;
}
