/**
 * Policies written in TypeScript (docs/authorization.md "Writing a policy in
 * TypeScript"): `definePolicy('documents', { archive: (user, doc) => … })`
 * gives the actions the YAML marks `code`, typed by the generated row types.
 *
 * `generated/policies.ts` fills {@link PolicyTypes} by declaration merging:
 * the user's row type, the database, each policy's row type, table and
 * `code` actions, and each action's row type (for `ctx.can`). Without it
 * (an app with no policies) everything is untyped.
 */
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { UntypedUser } from '../context/request-auth.js';
import type { UntypedTables } from '../db/any-kysely.js';

/**
 * The app's policy types, filled by `generated/policies.ts`:
 * `{ user; database; policies: { <name>: { row; table; code } }; actions: { '<policy>.<action>': row } }`.
 */
// biome-ignore lint/suspicious/noEmptyInterface: empty on purpose, an interface (not a type) so generated code can add members by declaration merging.
export interface PolicyTypes {}

type Member<K extends string, Fallback> = PolicyTypes extends { readonly [P in K]: infer T } ? T : Fallback;
type PolicyMap = Member<'policies', Record<string, { row: UntypedUser; table: string; code: string }>>;
type ActionMap = Member<'actions', Record<string, UntypedUser>>;

/** The signed-in user as policies see it (the row type of the users resource). */
export type PolicyUser = Member<'user', UntypedUser>;
/** The database the policies' scopes are written against. */
export type PolicyDatabase = Member<'database', UntypedTables>;
/** A policy's name (`documents`). */
export type PolicyName = keyof PolicyMap & string;
/** An action as `ctx.can` names it (`documents.update`). */
export type PolicyAction = keyof ActionMap & string;
/** The row an action applies to (`Document` for `documents.update`). */
export type PolicyRowOf<A extends string> = A extends keyof ActionMap ? ActionMap[A] : UntypedUser;

type RowOfPolicy<P extends PolicyName> = PolicyMap[P] extends { row: infer R } ? R : UntypedUser;
type CodeActionsOf<P extends PolicyName> = PolicyMap[P] extends { code: infer C extends string } ? C : string;
type ScopeBuilderOf<P extends PolicyName> = PolicyMap[P] extends { table: infer T }
  ? T extends keyof PolicyDatabase & string
    ? ExpressionBuilder<PolicyDatabase, T>
    : ExpressionBuilder<UntypedTables, UntypedTables>
  : ExpressionBuilder<UntypedTables, UntypedTables>;

/** A row check: true allows; anything else (false, undefined, a throw) denies. */
export type PolicyCheck<U, R> = (user: U, row: R) => boolean | Promise<boolean>;

/** The object form of an action written in TypeScript. */
export interface PolicyCodeAction<U, R, EB> {
  /** Decides for one row. Absent: the `scope` decides, run on the row's key. */
  readonly check?: PolicyCheck<U, R>;
  /**
   * The rows the user may act on, as a query condition (list routes,
   * included relations, bulk writes, `ctx.scope`); `true` for every row,
   * `false` for none. Needed when the YAML says `{ code: true, scope: true }`.
   */
  readonly scope?: (user: U, eb: EB) => Expression<SqlBool> | boolean;
  /**
   * Decides when there is no row (a route without a target, `ctx.can` without
   * a row). Absent: allowed then, and the rows are narrowed by the scope.
   */
  readonly withoutRow?: (user: U) => boolean | Promise<boolean>;
}

/** An action written in TypeScript: a row check, or the object form. Code actions never allow guests. */
export type PolicyCode<U, R, EB> = PolicyCheck<U, R> | PolicyCodeAction<U, R, EB>;

/** A TypeScript action of any policy, as the registry holds it. */
// biome-ignore lint/suspicious/noExplicitAny: the registry holds the actions of every policy, each typed by its own row (a contravariant parameter).
export type AnyPolicyCode = PolicyCode<any, any, any>;

/** What {@link definePolicy} returns: give it to `authorization({ definitions: [...] })`. */
export interface PolicyDefinition {
  readonly policy: string;
  readonly actions: Readonly<Record<string, AnyPolicyCode>>;
}

/**
 * The TypeScript actions of policy `policy`: those its YAML marks `code`
 * (every one of them, no other).
 *
 * @param actions by action name: `(user, row) => boolean` (a promise of one
 *   is fine; a throw is a 500, never an allow), or `{ check, scope, withoutRow }`.
 * @returns the definition, checked against the policies at boot
 *   (`BINDERY_POLICY_INVALID` for an unknown policy or action, or a `code`
 *   action left out).
 * @example
 *   export const usersPolicy = definePolicy('users', {
 *     view: {
 *       check: (user, target) => user.admin || user.id === target.id,
 *       scope: (user, eb) => user.admin || eb('users.id', '=', user.id),
 *     },
 *   });
 */
export function definePolicy<P extends PolicyName>(
  policy: P,
  actions: { readonly [A in CodeActionsOf<P>]: PolicyCode<PolicyUser, RowOfPolicy<P>, ScopeBuilderOf<P>> },
): PolicyDefinition {
  return { policy, actions: actions as Readonly<Record<string, AnyPolicyCode>> };
}
