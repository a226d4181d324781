/**
 * Declarative policy rules in JavaScript (docs/authorization.md "Rules"):
 * whether a rule holds for a caller and, when given, a row.
 *
 * The answer is three-valued: `true` (allowed), `false` (denied), or
 * `undefined` when it depends on a row that was not given (a route without
 * a target, `ctx.can('documents.update')` without a row). The same rule
 * becomes a query condition in `scopes.ts`; the two must agree, which the
 * tests check on the same rows.
 */
import type { ColumnConditions, PolicyRule, PolicyValue } from '../routing/policy-plan.js';

/** A three-valued verdict: `undefined` means "depends on the row". */
export type Verdict = boolean | undefined;

/** Who asks, as far as rules need: the authentication ID and the loaded user (null for a guest). */
export interface RuleCaller {
  /** The signed-in user's authentication ID (`ctx.auth.id`), or null for a guest. */
  readonly id: string | null;
  /** The user's record (`ctx.auth.user()`), read by `user:` conditions; null for a guest. */
  readonly user: Readonly<Record<string, unknown>> | null;
}

/** A row as the database gives it. */
export type Row = Readonly<Record<string, unknown>>;

/**
 * The verdict of `rule` for `caller` on `row` (absent: any row).
 * @example evaluateRule({ owner: 'owner_id' }, { id: '7', user }, { owner_id: 7 }) // true
 */
export function evaluateRule(rule: PolicyRule, caller: RuleCaller, row: Row | undefined): Verdict {
  if (rule === 'public') return true;
  if (rule === 'signedIn') return caller.id !== null;
  if (rule === 'nobody') return false;
  const parts: Verdict[] = [];
  if (rule.owner !== undefined)
    parts.push(caller.id === null ? false : row === undefined ? undefined : sameValue(row[rule.owner], caller.id));
  if (rule.user !== undefined) parts.push(caller.user === null ? false : matches(caller.user, rule.user));
  if (rule.row !== undefined) parts.push(row === undefined ? undefined : matches(row, rule.row));
  if (rule.anyOf !== undefined) parts.push(anyOf(rule.anyOf.map((r) => evaluateRule(r, caller, row))));
  return allOf(parts);
}

/** Three-valued AND: false wins, then "depends", else true (true for none). */
export function allOf(verdicts: readonly Verdict[]): Verdict {
  if (verdicts.includes(false)) return false;
  return verdicts.includes(undefined) ? undefined : true;
}

/** Three-valued OR: true wins, then "depends", else false (false for none). */
export function anyOf(verdicts: readonly Verdict[]): Verdict {
  if (verdicts.includes(true)) return true;
  return verdicts.includes(undefined) ? undefined : false;
}

/** Whether `rule` reads the user's record (`user:` conditions): the user must then be loaded. */
export function readsUser(rule: PolicyRule): boolean {
  if (typeof rule === 'string') return false;
  return rule.user !== undefined || (rule.anyOf ?? []).some(readsUser);
}

/** Every condition holds on `record`. */
function matches(record: Row, conditions: ColumnConditions): boolean {
  for (const [column, expected] of Object.entries(conditions)) {
    const value = record[column];
    const list: readonly PolicyValue[] = Array.isArray(expected) ? expected : [expected as PolicyValue];
    if (!list.some((e) => sameValue(value, e))) return false;
  }
  return true;
}

/**
 * A column's value equals a rule's value: `null` only `null`; booleans only
 * booleans; numbers, bigints and text by their decimal text (a bigint column
 * may arrive as a number or a string, the authentication ID is text).
 */
export function sameValue(value: unknown, expected: PolicyValue | string): boolean {
  if (expected === null || value === null || value === undefined) return expected === null && (value === null || value === undefined);
  if (typeof expected === 'boolean' || typeof value === 'boolean') return value === expected;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint') return String(value) === String(expected);
  return false;
}
