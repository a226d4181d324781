/**
 * The catalog message of a failed rule (docs/i18n.md "Validation"): the key
 * `validation.<rule>` (or `validation.<rule>.<kind>` for the size rules,
 * kind `string`, `numeric`, `array` or `file`) with the rule's placeholders.
 * The English catalog words them exactly as {@link ruleMessage} does.
 */
import type { LocalizedMessage } from '../errors/localized-message.js';
import type { FieldTypePlan, RuleRef } from '../routing/route-table.js';
import { categoryOf, RULES } from './rules.js';

/**
 * The catalog message of `rule` failing on a field.
 * @param attribute the client's name of the field (`created at`, or `tags.1` for an item).
 * @param field the field's input key, whose `attributes.<field>` names it in the catalog; `undefined` for an item.
 * @param own a message key the field's YAML gives the rule (`messages:`), used instead of `validation.<rule>`.
 */
export function ruleMessageRef(
  rule: RuleRef,
  type: FieldTypePlan,
  attribute: string,
  field: string | undefined,
  own?: string,
): LocalizedMessage {
  if (rule.name === 'each' && rule.inner)
    return ruleMessageRef(rule.inner, { kind: type.kind, array: false, nullable: false }, attribute, undefined, own);
  const spec = RULES[rule.name];
  const category = categoryOf(type);
  const key =
    own ??
    (spec === undefined || (spec.messages[category] === undefined && spec.messages['*'] === undefined)
      ? 'validation.invalid'
      : spec.messages[category] !== undefined && spec.messages['*'] === undefined
        ? `validation.${rule.name}.${category}`
        : `validation.${rule.name}`);
  const values: Record<string, string> = { attribute };
  const fields: Record<string, string> = field === undefined ? {} : { attribute: field };
  (spec?.placeholders ?? []).forEach((ph, i) => {
    if (ph === 'values') values[ph] = rule.params.join(', ');
    else if (ph === 'other') {
      values[ph] = String(rule.params[i]).replace(/_/g, ' ');
      fields[ph] = String(rule.params[i]);
    } else values[ph] = String(rule.params[i]);
  });
  return { key, values, fields };
}
