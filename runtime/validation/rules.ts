/**
 * The catalog of `validate` rules (docs/spec.md 4.5, binding step 4).
 *
 * Shared by the generator, which parses rule strings (rule-parser.ts), rejects
 * unknown rules and bad parameters with a position in the YAML, and turns each rule into a
 * JSON Schema fragment compiled by ajv at generate time; and by the runtime,
 * which words the message of the first failing rule of each field.
 *
 * Rules are written as strings: `name` or `name:params`. Lists are
 * comma-separated (`in:draft,published`); `regex:` takes the rest of the
 * string as is; `each:<rule>` applies `<rule>` to every item of a list.
 *
 * A `regex:` pattern runs on RE2, a linear-time engine (docs/schema-language.md
 * "Rules"): it must compile both there (no lookaround, no backreferences) and
 * as a JavaScript `u` pattern (what the OpenAPI document and clients see).
 */
import type { FieldTypePlan, RuleRef } from '../routing/route-table.js';
import { FILE_RULES } from './file-rules.js';

import type { RuleCategory, RuleParamKind, RuleSpec } from './rule-spec.js';

export type { RuleCategory, RuleParamKind, RuleSpec };

/** Category of a value of `type` for rules (a list is `array`, except inside `each`). */
export function categoryOf(type: FieldTypePlan): RuleCategory {
  if (type.array) return 'array';
  switch (type.kind) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
    case 'duration':
      return 'numeric';
    case 'file':
      return 'file';
    case 'boolean':
      return 'boolean';
    case 'timestamp':
      return 'timestamp';
    case 'json':
    case 'object':
      return 'any';
  }
}

const num = (p: string | number | undefined): number => Number(p);

/** Size bound keywords for a category: characters, value, items, or file size in kilobytes. */
function bound(type: FieldTypePlan, which: 'min' | 'max', n: number): Record<string, unknown> {
  switch (categoryOf(type)) {
    case 'string':
      return which === 'min' ? { minLength: n } : { maxLength: n };
    case 'numeric':
      return which === 'min' ? { minimum: n } : { maximum: n };
    case 'array':
      return which === 'min' ? { minItems: n } : { maxItems: n };
    case 'file':
      return { properties: { size: which === 'min' ? { minimum: n * 1024 } : { maximum: n * 1024 } } };
    default:
      return {};
  }
}

const SIZE_MESSAGES = (verb: string) => ({
  string: `The :attribute field ${verb} characters.`,
  numeric: `The :attribute field ${verb}.`,
  array: `The :attribute field ${verb} items.`,
  file: `The :attribute field ${verb} kilobytes.`,
});

const LETTERS = '\\p{L}\\p{M}';

/** Every rule, by name. Adding a rule here makes it usable in the YAML. */
export const RULES: Readonly<Record<string, RuleSpec>> = {
  required: {
    name: 'required',
    params: 'none',
    appliesTo: ['string', 'numeric', 'array', 'file', 'boolean', 'timestamp', 'any'],
    // Presence is the top-level `required` keyword; this fragment rejects null,
    // blank strings and empty lists.
    schema: (type) =>
      type.array ? { type: 'array', minItems: 1 } : type.kind === 'string' ? { type: 'string', pattern: '\\S' } : { not: { type: 'null' } },
    messages: { '*': 'The :attribute field is required.' },
  },
  min: {
    name: 'min',
    params: 'number',
    appliesTo: ['string', 'numeric', 'array', 'file'],
    placeholders: ['min'],
    schema: (type, [n]) => bound(type, 'min', num(n)),
    messages: {
      string: 'The :attribute field must be at least :min characters.',
      numeric: 'The :attribute field must be at least :min.',
      array: 'The :attribute field must have at least :min items.',
      file: 'The :attribute field must be at least :min kilobytes.',
    },
  },
  max: {
    name: 'max',
    params: 'number',
    appliesTo: ['string', 'numeric', 'array', 'file'],
    placeholders: ['max'],
    schema: (type, [n]) => bound(type, 'max', num(n)),
    messages: {
      string: 'The :attribute field must not be greater than :max characters.',
      numeric: 'The :attribute field must not be greater than :max.',
      array: 'The :attribute field must not have more than :max items.',
      file: 'The :attribute field must not be greater than :max kilobytes.',
    },
  },
  between: {
    name: 'between',
    params: 'number2',
    appliesTo: ['string', 'numeric', 'array', 'file'],
    placeholders: ['min', 'max'],
    schema: (type, [a, b]) => ({ allOf: [bound(type, 'min', num(a)), bound(type, 'max', num(b))] }),
    messages: SIZE_MESSAGES('must be between :min and :max'),
  },
  size: {
    name: 'size',
    params: 'number',
    appliesTo: ['string', 'numeric', 'array', 'file'],
    placeholders: ['size'],
    schema: (type, [n]) => ({ allOf: [bound(type, 'min', num(n)), bound(type, 'max', num(n))] }),
    messages: {
      string: 'The :attribute field must be :size characters.',
      numeric: 'The :attribute field must be :size.',
      array: 'The :attribute field must contain :size items.',
      file: 'The :attribute field must be :size kilobytes.',
    },
  },
  in: {
    name: 'in',
    params: 'list',
    appliesTo: ['string', 'numeric'],
    schema: (type, values) => ({ enum: type.kind === 'string' ? values.map(String) : values.map(Number) }),
    messages: { '*': 'The selected :attribute is invalid.' },
  },
  enum: {
    // Implied by an enum field (`type: enum, values: [...]`); may also be written as a rule.
    name: 'enum',
    params: 'list',
    appliesTo: ['string'],
    placeholders: ['values'],
    schema: (_type, values) => ({ enum: values.map(String) }),
    messages: { '*': 'The :attribute field must be one of: :values.' },
  },
  not_in: {
    name: 'not_in',
    params: 'list',
    appliesTo: ['string', 'numeric'],
    schema: (type, values) => ({ not: { enum: type.kind === 'string' ? values.map(String) : values.map(Number) } }),
    messages: { '*': 'The selected :attribute is invalid.' },
  },
  alpha: {
    name: 'alpha',
    params: 'none',
    appliesTo: ['string'],
    schema: () => ({ pattern: `^[${LETTERS}]+$` }),
    messages: { '*': 'The :attribute field must only contain letters.' },
  },
  alpha_num: {
    name: 'alpha_num',
    params: 'none',
    appliesTo: ['string'],
    schema: () => ({ pattern: `^[${LETTERS}\\p{N}]+$` }),
    messages: { '*': 'The :attribute field must only contain letters and numbers.' },
  },
  alpha_dash: {
    name: 'alpha_dash',
    params: 'none',
    appliesTo: ['string'],
    schema: () => ({ pattern: `^[${LETTERS}\\p{N}_-]+$` }),
    messages: { '*': 'The :attribute field must only contain letters, numbers, dashes, and underscores.' },
  },
  email: {
    name: 'email',
    params: 'none',
    appliesTo: ['string'],
    schema: () => ({ format: 'email' }),
    messages: { '*': 'The :attribute field must be a valid email address.' },
  },
  url: {
    name: 'url',
    params: 'none',
    appliesTo: ['string'],
    schema: () => ({ format: 'uri', pattern: '^https?://' }),
    messages: { '*': 'The :attribute field must be a valid URL.' },
  },
  uuid: {
    name: 'uuid',
    params: 'none',
    appliesTo: ['string'],
    schema: () => ({ format: 'uuid' }),
    messages: { '*': 'The :attribute field must be a valid UUID.' },
  },
  regex: {
    name: 'regex',
    params: 'regex',
    appliesTo: ['string'],
    schema: (_type, [pattern]) => ({ pattern: String(pattern) }),
    messages: { '*': 'The :attribute field format is invalid.' },
  },
  starts_with: {
    name: 'starts_with',
    params: 'list',
    appliesTo: ['string'],
    placeholders: ['values'],
    schema: (_type, values) => ({ pattern: `^(?:${values.map((v) => escapeRegex(String(v))).join('|')})` }),
    messages: { '*': 'The :attribute field must start with one of the following: :values.' },
  },
  ends_with: {
    name: 'ends_with',
    params: 'list',
    appliesTo: ['string'],
    placeholders: ['values'],
    schema: (_type, values) => ({ pattern: `(?:${values.map((v) => escapeRegex(String(v))).join('|')})$` }),
    messages: { '*': 'The :attribute field must end with one of the following: :values.' },
  },
  accepted: {
    name: 'accepted',
    params: 'none',
    appliesTo: ['boolean'],
    schema: () => ({ const: true }),
    messages: { '*': 'The :attribute field must be accepted.' },
  },
  distinct: {
    name: 'distinct',
    params: 'none',
    appliesTo: ['array'],
    schema: () => ({ uniqueItems: true }),
    messages: { '*': 'The :attribute field has a duplicate value.' },
  },
  each: {
    name: 'each',
    params: 'rule',
    appliesTo: ['array'],
    // The fragment is built by the generator from the inner rule: { items: inner }.
    messages: {},
  },
  confirmed: {
    name: 'confirmed',
    params: 'none',
    appliesTo: ['string', 'numeric'],
    // Compares with the input field `<key>_confirmation` (which the route must declare).
    check: (value, input, _params, key) => value === input[`${key}_confirmation`],
    messages: { '*': 'The :attribute field confirmation does not match.' },
  },
  same: {
    name: 'same',
    params: 'field',
    appliesTo: ['string', 'numeric', 'boolean'],
    placeholders: ['other'],
    check: (value, input, [other]) => value === input[String(other)],
    messages: { '*': 'The :attribute field must match :other.' },
  },
  different: {
    name: 'different',
    params: 'field',
    appliesTo: ['string', 'numeric', 'boolean'],
    placeholders: ['other'],
    check: (value, input, [other]) => value !== input[String(other)],
    messages: { '*': 'The :attribute field and :other must be different.' },
  },
  ...FILE_RULES,
};

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/**
 * The JSON Schema fragment of a parsed rule for a field of `type`, or `null`
 * for cross-field rules checked by the runtime.
 */
export function ruleSchema(rule: RuleRef, type: FieldTypePlan): Record<string, unknown> | null {
  if (rule.name === 'each' && rule.inner) {
    const item = ruleSchema(rule.inner, { kind: type.kind, array: false, nullable: false });
    return item ? { items: item } : null;
  }
  const spec = RULES[rule.name];
  if (!spec?.schema) return null;
  return spec.schema(type, rule.params);
}

/**
 * Word the message of a failed rule.
 * @param attribute the client's name of the field with `_` as spaces (`created at`), or `tags.1` for an item.
 * @param type the field's type (the item type for `each`).
 * @param templates a group's own sentences by rule name (docs/errors.md "Error formats"), with the same placeholders.
 */
export function ruleMessage(rule: RuleRef, type: FieldTypePlan, attribute: string, templates?: Readonly<Record<string, string>>): string {
  if (rule.name === 'each' && rule.inner)
    return ruleMessage(rule.inner, { kind: type.kind, array: false, nullable: false }, attribute, templates);
  const spec = RULES[rule.name];
  const own = templates !== undefined && Object.hasOwn(templates, rule.name) ? templates[rule.name] : undefined;
  const template = own ?? spec?.messages[categoryOf(type)] ?? spec?.messages['*'] ?? 'The :attribute field is invalid.';
  let out = template.replace(':attribute', attribute);
  const names = spec?.placeholders ?? [];
  names.forEach((ph, i) => {
    const value =
      ph === 'values' ? rule.params.join(', ') : ph === 'other' ? String(rule.params[i]).replace(/_/g, ' ') : String(rule.params[i]);
    out = out.replace(`:${ph}`, value);
  });
  return out;
}
