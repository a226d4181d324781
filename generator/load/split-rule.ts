/**
 * The hint for a rule cut in two by YAML: in a flow list
 * (`validate: [required, in:draft,published]`) a comma separates items, so
 * the values of `in:`, `not_in:`, `between:`, `starts_with:` and
 * `ends_with:` after the first become items of their own.
 */
import { RULES } from '../../runtime/validation/rules.js';

/** Rules whose parameter is a comma-separated list. */
const LIST_RULE = /^(?:each:)?(in|not_in|between|starts_with|ends_with):/;

/**
 * ` — inside [ … ] a comma separates items; quote the whole rule: "in:draft,published"`
 * when item `index` of `items` looks like the rest of a list rule before it; `''` otherwise.
 * @param items the `validate:` list as read from the YAML.
 */
export function splitRuleHint(items: readonly unknown[], index: number): string {
  const isRule = (item: unknown): boolean => typeof item === 'string' && item.split(':')[0]! in RULES;
  let start = index - 1;
  while (start >= 0 && !isRule(items[start])) start--;
  if (start < 0 || typeof items[start] !== 'string' || !LIST_RULE.test(items[start] as string)) return '';
  let end = start + 1;
  while (end + 1 < items.length && !isRule(items[end + 1])) end++;
  const whole = items
    .slice(start, end + 1)
    .map(String)
    .join(',');
  return ` — inside [ … ] a comma separates items; if it belongs to "${String(items[start])}", quote the whole rule: "${whole}"`;
}
