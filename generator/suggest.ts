/**
 * "Did you mean" hints for names and values in schema errors.
 */
import { closest } from '../runtime/support/closest.js';

/**
 * ` (did you mean "x"?)` when a candidate differs from `name` only in case or
 * by at most two edits; `''` otherwise.
 * @example didYouMean('distinc', ['distinct', 'max']) // ' (did you mean "distinct"?)'
 */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const list = [...candidates];
  const hint = list.find((c) => c.toLowerCase() === name.toLowerCase() && c !== name) ?? closest(name, list);
  return hint ? ` (did you mean "${hint}"?)` : '';
}
