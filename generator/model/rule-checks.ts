/**
 * Checks of an input field's rules against themselves and against the
 * field's `default:`: a value listed twice in `in:` / `not_in:`, a rule
 * given twice, size rules no value can pass together (`min:5` with `max:1`),
 * and a default the field's own rules would reject.
 */
import { Ajv, type ValidateFunction } from 'ajv';
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

/** Rules that may appear more than once on a field (each occurrence adds a different condition). */
const REPEATABLE = new Set(['regex', 'each']);

/**
 * For each rule (by index) that repeats an earlier one of the same name, or
 * whose size bound contradicts the earlier ones so that no value passes, the
 * message; rules as written in `sources`.
 */
export function conflictingRules(rules: readonly RuleRef[], sources: readonly string[]): Map<number, string> {
  const problems = new Map<number, string>();
  const firstOf = new Map<string, number>();
  let low: { value: number; at: number } | undefined;
  let high: { value: number; at: number } | undefined;
  rules.forEach((rule, i) => {
    const first = firstOf.get(rule.name);
    if (first !== undefined && !REPEATABLE.has(rule.name)) {
      problems.set(i, `rule "${rule.name}" is already given as "${sources[first]}" (validate[${first}]); keep one`);
      return;
    }
    firstOf.set(rule.name, i);
    const [a, b] = rule.params.map(Number);
    const bounds: [number | undefined, number | undefined] =
      rule.name === 'min'
        ? [a, undefined]
        : rule.name === 'max'
          ? [undefined, a]
          : rule.name === 'size'
            ? [a, a]
            : rule.name === 'between'
              ? [a, b]
              : [undefined, undefined];
    if (bounds[0] !== undefined && (low === undefined || bounds[0] > low.value)) low = { value: bounds[0], at: i };
    if (bounds[1] !== undefined && (high === undefined || bounds[1] < high.value)) high = { value: bounds[1], at: i };
    if (low !== undefined && high !== undefined && low.value > high.value && (low.at === i || high.at === i)) {
      const other = low.at === i ? high.at : low.at;
      problems.set(
        i,
        `rule "${sources[i]}" contradicts "${sources[other]}" (validate[${other}]): no value is at least ${low.value} and at most ${high.value}; change one of them`,
      );
    }
  });
  return problems;
}

let ajv: Ajv | undefined;
/** Compiled rule fragments by their JSON: ajv caches by schema object, and every field builds fresh fragments. */
const fragmentValidators = new Map<string, ValidateFunction>();

/**
 * The message for a `default:` that one of the field's own rules rejects
 * (e.g. default 500 with `max:100`), or undefined when every rule accepts it.
 * Cross-field rules (`confirmed`, `same`, `different`) are not checked: they
 * depend on other fields. A `null` default of a nullable field passes every
 * rule but `required`, as at run time.
 * @param value the default in its bound form (durations in milliseconds).
 * @param sources the rules as written, for the message (same order as `rules`).
 * @param written the default as written in the YAML, for the message (e.g. `2h` for 7200000 ms).
 */
export function defaultBreaksRule(
  type: FieldTypePlan,
  value: JsonValue,
  rules: readonly RuleRef[],
  sources: readonly string[],
  written: unknown = value,
): string | undefined {
  // validateSchema: false: the fragments are bindery's own (ruleSchema), as in the validator emitter's instances;
  // checking them against the meta-schema compiled the meta-schema on every run.
  ajv ??= addFormats(new Ajv({ allErrors: false, strictTypes: false, validateSchema: false }));
  const broken = (source: string | undefined): string =>
    `default ${show(written)} breaks the field's own rule "${source}", so every request that leaves the field out would be rejected; change the default or the rule`;
  for (const [i, rule] of rules.entries()) {
    if (rule.name === 'required') {
      // As at run time: null, blank text and an empty list are missing.
      if (value === null || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0))
        return broken(sources[i]);
      continue;
    }
    if (value === null && type.nullable) continue;
    const fragment = ruleSchema(rule, type);
    if (fragment === null || Object.keys(fragment).length === 0) continue;
    const key = JSON.stringify(fragment);
    let validate = fragmentValidators.get(key);
    if (validate === undefined) {
      validate = ajv.compile(fragment);
      fragmentValidators.set(key, validate);
    }
    if (!validate(value)) return broken(sources[i]);
  }
  return undefined;
}
