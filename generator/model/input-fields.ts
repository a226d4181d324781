/**
 * Resolving the input fields of a route (`routes.<name>.input.<key>`) into
 * binding plans (docs/schema-language.md "Input fields") with parsed `validate` rules.
 *
 * Binding rules of the language:
 * - no tag: `json: <key>`, and the form field of the same name;
 * - `json` without `form`: the form field has the JSON name;
 * - `form` alone: only from forms;
 * - `query`, `path`, `header`: from there only (never with `json`/`form`);
 * - `file` fields bind only from form fields (default `form: <key>`);
 * - `json` fields bind only from a JSON body (default `json: <key>`).
 */
import { parseRule } from '../../runtime/validation/rule-parser.js';
import type { FieldSource, FieldTypePlan, RuleRef, ScalarKind } from '../../runtime/routing/route-table.js';
import type { RawInputField, RawTag } from '../language/raw.js';
import type { DataPath } from '../load/node-position.js';
import { inputDefault } from './defaults.js';
import type { InputField, JsonValue } from './model.js';
import { splitRuleHint } from '../load/split-rule.js';
import { enumDefaultProblem, resolveEnumValues } from './enum-values.js';
import { conflictingRules, defaultBreaksRule, duplicateListValue } from './rule-checks.js';
import { didYouMean } from '../suggest.js';
import type { Reporter } from './reporter.js';
import { parseTypeName } from './resource-field.js';

const OUTSIDE_BODY = ['query', 'path', 'header'] as const;
const ALL_TAGS = ['json', 'form', 'query', 'path', 'header'] as const;

/**
 * Resolve input field `key` at `path`. Errors go to `r`; returns undefined
 * when the field has an error.
 * @param nested a field of an object field (docs/schema-language.md "Nested input"): bound from its object's member `key`, no tags.
 */
export function resolveInputField(r: Reporter, path: DataPath, key: string, raw: RawInputField, nested = false): InputField | undefined {
  let ok = true;
  const fail = (sub: string | number | undefined, message: string): void => {
    ok = false;
    r.error(sub === undefined ? path : [...path, sub], message);
  };
  const parsed = parseTypeName<ScalarKind | 'bigint' | 'enum'>(raw.type);
  const enumValues = resolveEnumValues(r, path, parsed.kind, raw.values);
  if (!enumValues.ok) ok = false;
  const values = enumValues.ok ? enumValues.values : undefined;
  // An enum binds as text; its implied `enum` rule (added below) checks the value.
  const kind = parsed.kind === 'bigint' ? 'integer' : parsed.kind === 'enum' ? 'string' : parsed.kind;
  const type: FieldTypePlan = { kind, array: parsed.array, nullable: raw.nullable ?? false };
  const nameOf = (tag: RawTag): string => (tag === true ? key : tag);

  const outside = OUTSIDE_BODY.filter((t) => raw[t] !== undefined);
  let source: FieldSource = 'body';
  let binding: { json?: string; form?: string; name?: string } = {};
  if (nested) {
    for (const tag of ALL_TAGS) {
      if (raw[tag] !== undefined)
        fail(tag, `a nested field is read from the member "${key}" of its object; remove "${tag}" (rename the key instead)`);
    }
    if (type.kind === 'file') fail('type', 'a file comes only from a multipart form field, never from inside a JSON object');
    binding = { json: key };
  } else if (type.kind === 'object' && (outside.length > 0 || raw.form !== undefined)) {
    for (const tag of [...outside, ...(raw.form !== undefined ? (['form'] as const) : [])])
      fail(tag, `an object field is read from a JSON body only; remove "${tag}"`);
  } else if (outside.length > 0) {
    const tag = outside[0]!;
    source = tag;
    for (const other of [...outside.slice(1), ...(['json', 'form'] as const).filter((t) => raw[t] !== undefined)]) {
      fail(other, `a field binds from one place: "${tag}" cannot be combined with "${other}" (the body cannot set ${tag} values)`);
    }
    const name = nameOf(raw[tag]!);
    binding = { name: tag === 'header' ? name.toLowerCase() : name };
    if (type.kind === 'file') fail(tag, 'a file comes only from a multipart form field; use "form" instead');
    if (type.kind === 'json') fail(tag, `a json field is read from a JSON body only; remove "${tag}"`);
    if (tag !== 'query' && type.array) fail('type', `a ${tag} value is a single value; use ${type.kind} instead of ${raw.type}`);
    if (tag === 'path' && type.nullable) fail('nullable', 'a path parameter is never null; remove "nullable"');
    if (tag === 'path' && raw.default !== undefined) fail('default', 'a path parameter is always present; remove "default"');
  } else if (type.kind === 'file') {
    if (raw.json !== undefined) fail('json', 'a file comes only from a multipart form field; use "form" instead of "json"');
    binding = { form: raw.form === undefined ? key : nameOf(raw.form) };
  } else if (type.kind === 'json' || type.kind === 'object') {
    if (raw.form !== undefined) fail('form', `a ${type.kind} field is read from a JSON body only; remove "form"`);
    binding = { json: raw.json === undefined ? key : nameOf(raw.json) };
  } else if (raw.form !== undefined) {
    binding = raw.json === undefined ? { form: nameOf(raw.form) } : { json: nameOf(raw.json), form: nameOf(raw.form) };
  } else {
    const json = raw.json === undefined ? key : nameOf(raw.json);
    binding = { json, form: json };
  }

  let fieldDefault: unknown;
  if (raw.default !== undefined && source !== 'path') {
    const converted = inputDefault(type, raw.default);
    const problem = converted.ok && values ? enumDefaultProblem(values, converted.value) : undefined;
    if (converted.ok && problem === undefined) fieldDefault = converted.value;
    else {
      ok = false;
      r.error([...path, 'default'], converted.ok ? problem! : converted.message, 'value');
    }
  }

  const rules: RuleRef[] = [];
  (raw.validate ?? []).forEach((text, i) => {
    if (type.kind === 'object' && text !== 'required') {
      ok = false;
      r.error([...path, 'validate', i], `an object takes only the rule "required"; put "${text}" on its fields`, 'value');
      return;
    }
    const rule = parseRule(text, type);
    const duplicate = rule.ok ? duplicateListValue(rule.rule, type) : undefined;
    if (rule.ok && duplicate === undefined) rules.push(rule.rule);
    else {
      ok = false;
      r.error([...path, 'validate', i], rule.ok ? duplicate! : `${rule.message}${splitRuleHint(raw.validate ?? [], i)}`, 'value');
    }
  });
  if (values) {
    const rule: RuleRef = { name: 'enum', params: values };
    rules.push(type.array ? { name: 'each', params: [], inner: rule } : rule);
  }
  if (ok) {
    for (const [i, message] of conflictingRules(rules, raw.validate ?? [])) {
      ok = false;
      r.error([...path, 'validate', i], message, 'value');
    }
  }
  if (ok && fieldDefault !== undefined) {
    const broken = defaultBreaksRule(type, fieldDefault as JsonValue, rules, raw.validate ?? [], raw.default);
    if (broken !== undefined) {
      ok = false;
      r.error([...path, 'default'], broken, 'value');
    }
  }

  if (!checkRuleMessages(r, path, raw, rules)) ok = false;

  const fields = nestedFields(r, path, raw, type);
  if (fields === null) ok = false;

  if (!ok) return undefined;
  return {
    key,
    type,
    source,
    ...binding,
    ...(fieldDefault !== undefined ? { default: fieldDefault } : {}),
    rules,
    ...(raw.messages !== undefined ? { messages: { ...raw.messages } } : {}),
    required: rules.some((rule) => rule.name === 'required'),
    ...(raw.description !== undefined ? { description: raw.description } : {}),
    ...(values ? { values } : {}),
    ...(fields ? { fields } : {}),
  };
}

/** Each rule `messages:` names is one of the field's (an `each:` rule by its inner rule); false when not (reported). */
function checkRuleMessages(r: Reporter, path: DataPath, raw: RawInputField, rules: readonly RuleRef[]): boolean {
  let ok = true;
  for (const rule of Object.keys(raw.messages ?? {})) {
    if (rules.some((x) => x.name === rule || x.inner?.name === rule)) continue;
    ok = false;
    r.error(
      [...path, 'messages', rule],
      `"messages" names the rule "${rule}", which the field does not have; list it under "validate" or remove it`,
    );
  }
  return ok;
}

/**
 * The fields of an object field, resolved (docs/schema-language.md "Nested
 * input"): `undefined` for another type, `null` on an error (reported). An
 * object takes only the rule `required`; its fields' cross-field rules name
 * fields of the same object.
 */
function nestedFields(r: Reporter, path: DataPath, raw: RawInputField, type: FieldTypePlan): InputField[] | null | undefined {
  if (type.kind !== 'object') {
    if (raw.fields === undefined) return undefined;
    r.error([...path, 'fields'], `"fields" lists the fields of an object; use "type: object" or remove "fields"`);
    return null;
  }
  let ok = true;
  if (raw.fields === undefined || Object.keys(raw.fields).length === 0) {
    r.error([...path, 'type'], 'an object field lists its fields under "fields", e.g. fields: { email: { type: string } }', 'value');
    return null;
  }
  const fields: InputField[] = [];
  for (const [key, child] of Object.entries(raw.fields)) {
    const field = resolveInputField(r, [...path, 'fields', key], key, child, true);
    if (field) fields.push(field);
    else ok = false;
  }
  if (ok && !checkCrossFieldRules(r, [...path, 'fields'], fields)) ok = false;
  return ok ? fields : null;
}

/**
 * Cross-field rule checks of one route: `confirmed` needs a
 * `<key>_confirmation` field; `same:x` and `different:x` need a field `x`
 * other than the field itself. Returns false when one fails.
 */
export function checkCrossFieldRules(r: Reporter, inputPath: DataPath, fields: readonly InputField[]): boolean {
  let ok = true;
  const keys = fields.map((f) => f.key);
  for (const field of fields) {
    field.rules.forEach((rule, i) => {
      const at = [...inputPath, field.key, 'validate', i];
      if (rule.name === 'confirmed' && !keys.includes(`${field.key}_confirmation`)) {
        ok = false;
        r.error(
          at,
          `rule "confirmed" compares "${field.key}" with the input field "${field.key}_confirmation", which this route does not declare; add it under input`,
          'value',
        );
      }
      if (rule.name === 'same' || rule.name === 'different') {
        const other = String(rule.params[0]);
        if (other === field.key) {
          ok = false;
          r.error(at, `rule "${rule.name}" compares "${field.key}" with itself; name another input field`, 'value');
        } else if (!keys.includes(other)) {
          ok = false;
          r.error(
            at,
            `rule "${rule.name}" names the input field "${other}"${didYouMean(other, keys)}, which this route does not declare`,
            'value',
          );
        }
      }
    });
  }
  return ok;
}
