/**
 * Checks of an input field's rules against themselves and against the
 * field's `default:`: a value listed twice in `in:` / `not_in:`, and a
 * default the field's own rules would reject.
 */
import { Ajv } from 'ajv';
import formatsModule from 'ajv-formats';
import { ruleSchema } from '../../runtime/validation/rules.js';
import type { FieldTypePlan, RuleRef } from '../../runtime/routing/route-table.js';
import { show } from '../load/ajv-messages.js';
import type { JsonValue } from './model.js';

type AddFormats = (ajv: Ajv) => Ajv;
const addFormats = ((formatsModule as unknown as { default?: AddFormats }).default ?? formatsModule) as unknown as AddFormats;

/**
 * The message for a value listed twice in an `in:` or `not_in:` rule (also
 * inside `each:`), or undefined when every value is distinct. Values of a
 * numeric field are compared as numbers, so `in:1,01` lists 1 twice.
 */
export function duplicateListValue(rule: RuleRef, type: FieldTypePlan): string | undefined {
  if (rule.name === 'each' && rule.inner) return duplicateListValue(rule.inner, type);
  if (rule.name !== 'in' && rule.name !== 'not_in') return undefined;
  const numeric = type.kind !== 'string';
  const seen = new Map<string | number, string>();
  for (const value of rule.params.map(String)) {
    const key = numeric ? Number(value) : value;
    const first = seen.get(key);
    if (first !== undefined) {
      const same = first === value ? '' : ` (${show(first)} and ${show(value)} are the same number)`;
      return `rule "${rule.name}" lists ${show(first)} twice${same}; list each value once, e.g. "${rule.name}:${[...new Set(rule.params.map((p) => (numeric ? Number(p) : String(p))))].join(',')}"`;
    }
    seen.set(key, value);
  }
  return undefined;
}

let ajv: Ajv | undefined;

/**
 * The message for a `default:` that one of the field's own rules rejects
 * (e.g. default 500 with `max:100`), or undefined when every rule accepts it.
 * Cross-field rules (`confirmed`, `same`, `different`) are not checked: they
 * depend on other fields. A `null` default of a nullable field passes every
 * rule but `required`, as at run time.
 * @param value the default in its bound form (durations in milliseconds).
 * @param sources the rules as written, for the message (same order as `rules`).
 */
export function defaultBreaksRule(type: FieldTypePlan, value: JsonValue, rules: readonly RuleRef[], sources: readonly string[]): string | undefined {
  ajv ??= addFormats(new Ajv({ allErrors: false, strictTypes: false }));
  for (const [i, rule] of rules.entries()) {
    if (rule.name === 'required') {
      if (value === null) return `default null breaks the field's own rule "required", so every request that leaves the field out would be rejected; give a value or remove "required"`;
      continue;
    }
    if (value === null && type.nullable) continue;
    const fragment = ruleSchema(rule, type);
    if (fragment === null || Object.keys(fragment).length === 0) continue;
    if (!ajv.validate(fragment, value)) {
      return `default ${show(value)} breaks the field's own rule "${sources[i]}", so every request that leaves the field out would be rejected; change the default or the rule`;
    }
  }
  return undefined;
}
