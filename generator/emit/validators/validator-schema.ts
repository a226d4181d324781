/**
 * The JSON Schema a route's validator is compiled from (contract in
 * `runtime/routing/route-table.ts`, `CompiledValidator`).
 *
 * - `properties.<key>` = `{ allOf: [fragment of rule 0, fragment of rule 1, …] }`
 *   for every field with rules, so an error's `schemaPath`
 *   `#/properties/<key>/allOf/<i>/…` names rule `i`;
 * - cross-field rules (`confirmed`, `same`, `different`) have no fragment:
 *   `{}` keeps the indexes aligned (the runtime checks them after ajv);
 * - on a nullable field every rule but `required` lets `null` through
 *   (`{ if: { type: 'null' }, else: fragment }`);
 * - `required: [...]` lists the fields with a `required` rule;
 * - a `regex:` rule (alone or in `each:`) is `{ linearPattern: … }`, run on
 *   RE2 (`budget-keywords.ts`), not ajv's backtracking `pattern`.
 *
 * The validators' ajv stops a field's `allOf` at its first failing rule
 * (`budget-keywords.ts`), so later rules never run on a value an earlier
 * one refused.
 *
 * No `type` keyword for the fields' own types: the binder guarantees them.
 */
import type { RuleRef } from '../../../runtime/routing/route-table.js';
import { ruleSchema } from '../../../runtime/validation/rules.js';
import type { InputField, Route } from '../../model/model.js';
import { LINEAR_PATTERN } from './budget-keywords.js';

/** The validator's JSON Schema of `route`, or null when no field has a rule. */
export function validatorSchema(route: Route): Record<string, unknown> | null {
  return objectSchema(route.input);
}

/** Whether a field or one of its nested fields has a rule. */
function checked(field: InputField): boolean {
  return field.rules.length > 0 || (field.fields ?? []).some(checked);
}

/**
 * The schema of an object of `fields` (the input, or an object field's
 * value): `properties.<key>.allOf` per rule, an object field's own fields
 * under its `properties` beside its `allOf` (`#/properties/user/properties/email/allOf/0`),
 * and `required`. Null when no field has a rule.
 */
function objectSchema(fields: readonly InputField[]): Record<string, unknown> | null {
  const withRules = fields.filter(checked);
  if (withRules.length === 0) return null;
  const properties: Record<string, unknown> = {};
  for (const field of withRules) {
    const nested = field.fields ? objectSchema(field.fields) : null;
    const allOf = field.rules.map((rule) => {
      const fragment = linear(rule, ruleSchema(rule, field.type) ?? {});
      return field.type.nullable && rule.name !== 'required' && Object.keys(fragment).length > 0
        ? { if: { type: 'null' }, else: fragment }
        : fragment;
    });
    // An object field without rules of its own has no allOf (ajv refuses an empty one).
    properties[field.key] = {
      ...(allOf.length > 0 ? { allOf } : {}),
      ...(nested ?? {}),
    };
  }
  const required = fields.filter((f) => f.required).map((f) => f.key);
  return required.length > 0 ? { properties, required } : { properties };
}

/** A `regex:` rule's fragment with its pattern on RE2 (`{ pattern }` → `{ linearPattern }`, inside `items` for `each:`). */
function linear(rule: RuleRef, fragment: Record<string, unknown>): Record<string, unknown> {
  if (rule.name === 'regex') return { [LINEAR_PATTERN]: fragment['pattern'] };
  if (rule.name === 'each' && rule.inner?.name === 'regex')
    return { items: linear(rule.inner, fragment['items'] as Record<string, unknown>) };
  return fragment;
}
