/**
 * Declarative policy rules as query conditions (docs/authorization.md
 * "Scopes"): the rows of a table a caller may act on, for list routes,
 * included relations, bulk writes and `ctx.scope()`.
 *
 * Parts that do not depend on a row (`signedIn`, `user:` conditions) are
 * decided here, for the caller, and fold away: an admin's scope of
 * `anyOf: [{ owner: owner_id }, { user: { admin: true } }]` is no condition
 * at all, another user's is `owner_id = <their ID>`. Columns are qualified
 * with the table, so a scope holds in a query that joins others.
 */
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { UntypedTables } from '../db/any-kysely.js';
import type { ColumnConditions, PolicyRule, PolicyValue } from '../routing/policy-plan.js';
import type { RuleCaller } from './rules.js';
import { evaluateRule } from './rules.js';

/**
 * A condition on the rows of one table, for Kysely's `where`:
 * `query.where(scope)`. It is built for one caller; the table is named at
 * run time, so it takes the expression builder of Kysely's untyped table
 * map ({@link UntypedTables}), which fits queries of tables named at run time
 * (lists, includes, bulk writes) and of the app's typed tables (`ctx.scope`).
 */
export type RowScope = (eb: ExpressionBuilder<UntypedTables, UntypedTables>) => Expression<SqlBool>;

/** A condition while it is built: decided (`true`, `false`) or still a query condition. */
export type ScopePart = boolean | RowScope;

const TRUE: RowScope = () => sql<SqlBool>`true`;
const FALSE: RowScope = () => sql<SqlBool>`false`;

/** Every row (`where true`). */
export const ALL_ROWS: RowScope = TRUE;
/** No row (`where false`). */
export const NO_ROWS: RowScope = FALSE;

/**
 * The condition `rule` puts on `table`'s rows for `caller`.
 * @example ruleScope({ owner: 'owner_id' }, { id: '7', user: null }, 'documents') // documents.owner_id = '7'
 */
export function ruleScope(rule: PolicyRule, caller: RuleCaller, table: string): ScopePart {
  if (typeof rule === 'string') return evaluateRule(rule, caller, undefined) === true;
  const parts: ScopePart[] = [];
  if (rule.owner !== undefined) {
    const column = rule.owner;
    const id = caller.id;
    parts.push(id === null ? false : (eb) => eb(sql.ref(`${table}.${column}`), '=', id));
  }
  // `user:` conditions do not depend on the row: the rule decides them for this caller.
  if (rule.user !== undefined) parts.push(evaluateRule({ user: rule.user }, caller, undefined) === true);
  if (rule.row !== undefined) parts.push(rowConditions(rule.row, table));
  if (rule.anyOf !== undefined) parts.push(orParts(rule.anyOf.map((r) => ruleScope(r, caller, table))));
  return andParts(parts);
}

/** The part as a scope: `true` → every row, `false` → none. */
export function asScope(part: ScopePart): RowScope {
  if (part === true) return TRUE;
  if (part === false) return FALSE;
  return part;
}

/** AND with folding: a `false` part decides, `true` parts drop out. */
export function andParts(parts: readonly ScopePart[]): ScopePart {
  if (parts.includes(false)) return false;
  const open = parts.filter((p): p is RowScope => p !== true);
  if (open.length === 0) return true;
  if (open.length === 1) return open[0]!;
  return (eb) => eb.and(open.map((p) => p(eb)));
}

/** OR with folding: a `true` part decides, `false` parts drop out. */
export function orParts(parts: readonly ScopePart[]): ScopePart {
  if (parts.includes(true)) return true;
  const open = parts.filter((p): p is RowScope => p !== false);
  if (open.length === 0) return false;
  if (open.length === 1) return open[0]!;
  return (eb) => eb.or(open.map((p) => p(eb)));
}

function rowConditions(conditions: ColumnConditions, table: string): ScopePart {
  return andParts(
    Object.entries(conditions).map(([column, expected]): ScopePart => {
      const ref = sql.ref(`${table}.${column}`);
      const list: readonly PolicyValue[] = Array.isArray(expected) ? expected : [expected as PolicyValue];
      const values = list.filter((v) => v !== null);
      const withNull = values.length < list.length;
      const parts: ScopePart[] = [];
      if (values.length === 1) parts.push((eb) => eb(ref, '=', values[0]));
      else if (values.length > 1) parts.push((eb) => eb(ref, 'in', values));
      if (withNull) parts.push((eb) => eb(ref, 'is', null));
      return orParts(parts);
    }),
  );
}
