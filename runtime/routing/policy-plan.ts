/**
 * The shape of the authorization policies that `bindery generate` emits into
 * `generated/policies.ts`, and of a route's `authorize` plan in
 * `generated/routes.ts` (docs/authorization.md).
 *
 * Like `route-table.ts`, this file is a contract between the generator and
 * the runtime: the generator writes values of these types from the YAML
 * `policies:` and `authorize:` keys; `runtime/authorization` evaluates them.
 */

/** A value a rule compares a column with (YAML scalars). */
export type PolicyValue = string | number | boolean | null;

/** Conditions on columns: each column equals the value, or one of the listed values. All must hold. */
export type ColumnConditions = Readonly<Record<string, PolicyValue | readonly PolicyValue[]>>;

/**
 * A declarative rule (YAML): who may do an action, to which rows.
 *
 * - `public`: anyone, guests included.
 * - `signedIn`: any signed-in user.
 * - `nobody`: no one (the action is declared, and always denied).
 * - an object: every key present must hold —
 *   `owner` (the row's column holds the user's authentication ID),
 *   `user` (the signed-in user's columns have these values),
 *   `row` (the row's columns have these values),
 *   `anyOf` (at least one of the nested rules holds).
 *   An object always needs a signed-in user unless it has only `row` keys
 *   or an `anyOf` member that allows guests.
 */
export type PolicyRule = 'public' | 'signedIn' | 'nobody' | PolicyConditions;

/** The object form of a {@link PolicyRule}. */
export interface PolicyConditions {
  readonly owner?: string;
  readonly user?: ColumnConditions;
  readonly row?: ColumnConditions;
  readonly anyOf?: readonly PolicyRule[];
}

/** One action of a policy: its rule, or `code` (written in TypeScript with `definePolicy`). */
export interface PolicyActionPlan {
  /** The declarative rule, or `'code'`: the app's `definePolicy(<policy>, { <action>: … })` decides. */
  readonly rule: PolicyRule | 'code';
  /**
   * The rule can narrow a query (list routes, included relations, bulk
   * writes): always true for declarative rules; for `code`, the YAML
   * promised a `scope` function (`{ code: true, scope: true }`), which the
   * boot checks `definePolicy` gives.
   */
  readonly scoped: boolean;
  /** The ability a bearer token needs for the action (docs/authorization.md "Tokens"), e.g. `documents:write`. */
  readonly ability: string;
}

/** A policy: the table its rows live in and its actions. */
export interface PolicyPlan {
  /** What a row is called in messages: the resource's name (`Document`). */
  readonly label: string;
  /** The table of the rows (`documents`). */
  readonly table: string;
  /** Its primary key column. */
  readonly primaryKey: string;
  /** Its soft-delete column, or null. */
  readonly softDelete: string | null;
  /**
   * A denied request is answered 404, like a row that does not exist, when
   * the caller may not `view` the row either (existence must not leak);
   * else 403.
   */
  readonly hideExistence: boolean;
  /** The actions by name (`view`, `update`, app-defined ones such as `archive`). */
  readonly actions: Readonly<Record<string, PolicyActionPlan>>;
}

/** Every policy of an app, by name (`documents`, `users`); `policies` of `generated/policies.ts`. */
export type PolicyTable = Readonly<Record<string, PolicyPlan>>;

/**
 * How a route is authorized (YAML `authorize: documents.update`, or the
 * action its kind implies; docs/authorization.md "Routes").
 *
 * With a `target`, the runtime loads the row the path names, applies the
 * action's rule to it and hands it to the handler (third argument); without
 * one, it applies the rule's parts that do not depend on a row, and a list
 * route's rows are narrowed by the action's scope.
 */
export interface AuthorizePlan {
  readonly policy: string;
  readonly action: string;
  /** The row the route acts on, or absent. */
  readonly target?: AuthorizeTargetPlan;
}

/** The row a route acts on: the input field holding its key and the column it matches. */
export interface AuthorizeTargetPlan {
  /** The (path) input field, e.g. `id`. */
  readonly field: string;
  /** The column it is compared with: the primary key or a unique column, e.g. `id`, `slug`. */
  readonly column: string;
  /** Soft-deleted rows are found too (restore, history). */
  readonly withDeleted: boolean;
}
