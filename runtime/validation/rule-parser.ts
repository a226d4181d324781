/**
 * Parsing a `validate` rule string of the YAML (`max:200`, `in:a,b`,
 * `each:alpha_dash`) against the rule catalog (rules.ts) for a field's type:
 * the generator's check of every rule, with a message saying what is wrong
 * (docs/schema-language.md "Rules").
 */
import { RE2JS } from 're2js';
import type { FieldTypePlan, RuleRef } from '../routing/route-table.js';
import { closest } from '../support/closest.js';
import type { RuleParamKind } from './rule-spec.js';
import { categoryOf, RULES } from './rules.js';

/** Result of parsing one rule string: the rule, or a message saying what is wrong with it. */
export type ParsedRule = { ok: true; rule: RuleRef } | { ok: false; message: string };

/**
 * Parse a rule string such as `max:200`, `in:a,b`, `each:alpha_dash` for a
 * field of `type`, checking the name, the parameters and that the rule
 * applies to the type. Never throws.
 * @returns the parsed {@link RuleRef}, or a message like `unknown rule "distinc" (did you mean "distinct"?)`.
 */
export function parseRule(source: string, type: FieldTypePlan): ParsedRule {
  const colon = source.indexOf(':');
  const name = colon === -1 ? source : source.slice(0, colon);
  const raw = colon === -1 ? undefined : source.slice(colon + 1);
  const spec = RULES[name];
  if (!spec) {
    const hint = closest(name, Object.keys(RULES));
    return { ok: false, message: `unknown rule "${name}"${hint ? ` (did you mean "${hint}"?)` : ''}` };
  }
  const category = categoryOf(type);
  if (!spec.appliesTo.includes(category)) {
    return {
      ok: false,
      message: `rule "${name}" does not apply to a ${describe(type)} field (it applies to: ${spec.appliesTo.join(', ')})`,
    };
  }
  if (spec.params === 'none') {
    if (raw !== undefined) return { ok: false, message: `rule "${name}" takes no parameter, got "${raw}"` };
    return { ok: true, rule: { name, params: [] } };
  }
  if (raw === undefined || raw === '') return { ok: false, message: `rule "${name}" needs a parameter (${paramHint(spec.params, name)})` };
  switch (spec.params) {
    case 'number': {
      const n = Number(raw);
      if (!/^-?\d+(\.\d+)?$/.test(raw) || !Number.isFinite(n)) return { ok: false, message: `rule "${name}" needs a number, got "${raw}"` };
      if (category !== 'numeric' && (!Number.isInteger(n) || n < 0))
        return { ok: false, message: `rule "${name}" needs a whole number of at least 0 for a ${describe(type)} field, got "${raw}"` };
      return { ok: true, rule: { name, params: [n] } };
    }
    case 'number2': {
      const parts = raw.split(',');
      if (parts.length !== 2 || parts.some((p) => !/^-?\d+(\.\d+)?$/.test(p.trim())))
        return { ok: false, message: `rule "${name}" needs two numbers "min,max", got "${raw}"` };
      const [a, b] = parts.map((p) => Number(p.trim())) as [number, number];
      if (a > b) return { ok: false, message: `rule "${name}" needs min <= max, got "${raw}"` };
      return { ok: true, rule: { name, params: [a, b] } };
    }
    case 'list': {
      const values = raw.split(',').map((v) => v.trim());
      if (values.some((v) => v === '')) return { ok: false, message: `rule "${name}" has an empty value in "${raw}"` };
      const problem = spec.checkParams?.(values);
      if (problem !== undefined) return { ok: false, message: problem };
      if (type.kind !== 'string' && category === 'numeric' && values.some((v) => !Number.isFinite(Number(v)))) {
        return { ok: false, message: `rule "${name}" needs numbers for a ${describe(type)} field, got "${raw}"` };
      }
      return { ok: true, rule: { name, params: values } };
    }
    case 'regex': {
      try {
        new RegExp(raw, 'u');
      } catch (err) {
        return { ok: false, message: `rule "regex" has an invalid pattern: ${(err as Error).message}` };
      }
      try {
        RE2JS.compile(raw);
      } catch (err) {
        return {
          ok: false,
          message: `rule "regex" has a pattern the linear-time engine (RE2) cannot run: ${(err as Error).message}; lookaround and backreferences are not supported (they can take exponential time)`,
        };
      }
      return { ok: true, rule: { name, params: [raw] } };
    }
    case 'field':
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(raw)) return { ok: false, message: `rule "${name}" needs an input field name, got "${raw}"` };
      return { ok: true, rule: { name, params: [raw] } };
    case 'rule': {
      const inner = parseRule(raw, { kind: type.kind, array: false, nullable: false });
      if (!inner.ok) return { ok: false, message: `in "each": ${inner.message}` };
      if (inner.rule.name === 'each' || inner.rule.name === 'required' || RULES[inner.rule.name]?.check) {
        return { ok: false, message: `rule "each" cannot wrap "${inner.rule.name}"` };
      }
      return { ok: true, rule: { name, params: [], inner: inner.rule } };
    }
  }
}

function describe(type: FieldTypePlan): string {
  return `${type.kind}${type.array ? '[]' : ''}`;
}

function paramHint(kind: RuleParamKind, name: string): string {
  switch (kind) {
    case 'number':
      return `e.g. "${name}:10"`;
    case 'number2':
      return `e.g. "${name}:1,10"`;
    case 'list':
      return `e.g. "${name}:a,b"`;
    case 'regex':
      return `e.g. "${name}:^[a-z]+$"`;
    case 'rule':
      return `e.g. "${name}:alpha_dash"`;
    case 'field':
      return `e.g. "${name}:other_field"`;
    default:
      return '';
  }
}
