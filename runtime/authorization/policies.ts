/**
 * The app's policies at run time (docs/authorization.md): the generated
 * table of declarative rules (`generated/policies.ts`) joined with the
 * actions written in TypeScript (`definePolicy`), checked against each
 * other once at boot. `ctx.services.policies`, set up by `authorization()`.
 *
 * One question, three forms: {@link Policies.decide} (may this caller do
 * this to this row — or to some row), {@link Policies.decideNow} (the same,
 * synchronously, for views) and {@link Policies.scope} (the rows they may
 * do it to, as a query condition).
 */
import type { AnyKysely } from '../db/any-kysely.js';
import { BinderyError } from '../errors/bindery-error.js';
import type { PolicyActionPlan, PolicyPlan, PolicyTable } from '../routing/policy-plan.js';
import { codeAction, codeScope, codeVerdict, codeVerdictNow, type AnyCodeAction, type CodeTarget } from './code-actions.js';
import type { PolicyDefinition } from './define-policy.js';
import { evaluateRule, readsUser, type Row, type RuleCaller, type Verdict } from './rules.js';
import { asScope, NO_ROWS, ruleScope, type RowScope } from './scopes.js';
import { checkDefinitions } from './check-definitions.js';

/** Who asks: `ctx.auth` (a `RequestAuth`) has this shape. */
export interface PolicySubject {
  /** The signed-in user's authentication ID, or null for a guest. */
  readonly id: string | null;
  /** The bearer token of a request signed in by one, else null: its abilities narrow what the user may do. */
  readonly token: { readonly abilities: readonly string[] } | null;
  /** The user's record (loaded once per request), null for a guest or a user that is gone. */
  user(): Promise<unknown>;
}

/** Why a request was refused. */
export type DenialReason = 'guest' | 'ability' | 'rule';

/** The answer of {@link Policies.decide}. */
export type Decision = { readonly allowed: true } | { readonly allowed: false; readonly reason: DenialReason; readonly ability?: string };

/** One action, ready to run. */
interface CompiledAction extends CodeTarget {
  readonly policy: string;
  readonly action: string;
  readonly plan: PolicyActionPlan;
  /** The TypeScript action, for `code`. */
  readonly code: AnyCodeAction | undefined;
  /** The user's record is needed to decide (a `user:` condition or code). */
  readonly needsUser: boolean;
}

/** A request refused by a policy, as logged and handed to {@link Policies.onDenied} listeners (no row data). */
export interface Denial {
  readonly policy: string;
  readonly action: string;
  readonly reason: DenialReason;
  /** The status answered: 401 (a guest), 403, or 404 (existence hidden). */
  readonly status: 401 | 403 | 404;
  /** The table of the row, and its key when there was one. */
  readonly table: string;
  readonly key: string | null;
  /** The signed-in user's authentication ID, or null for a guest. */
  readonly user: string | null;
  /** The route refused, or null (`ctx.authorize` outside a route's own check). */
  readonly route: string | null;
  /** The ability the token lacked, for reason `ability`. */
  readonly ability?: string;
}

/** Called for every denial (the audit log records them when `AUDIT_DENIALS=true`); a throw is logged, never changes the answer. */
export type DenialListener = (denial: Denial) => void | Promise<void>;

/** Options of {@link Policies}. */
export interface PoliciesOptions {
  /** Kysely over the app's database: code actions without a `check` are run through their scope on the row's key. */
  readonly db: AnyKysely;
}

const ALLOWED: Decision = { allowed: true };

/** Options of {@link Policies.decide} and {@link Policies.scope}. */
export interface DecideOptions {
  /**
   * Whether a bearer token must carry the action's ability (default true).
   * False for rows a route shows besides its own (included relations, the
   * view check that decides 403 or 404): the route's own ability governs the
   * request, the rule governs those rows.
   */
  readonly ability?: boolean;
}

/**
 * The policies of one app.
 * @example
 *   const policies = new Policies(generatedPolicies, [usersPolicy], { db });
 *   const decision = await policies.decide(ctx.auth, 'documents.update', doc);
 */
export class Policies {
  /** The policy table as generated. */
  readonly table: PolicyTable;
  readonly #db: AnyKysely;
  readonly #actions = new Map<string, CompiledAction>();
  readonly #byTable = new Map<string, string>();
  readonly #listeners: DenialListener[] = [];

  /**
   * @throws {BinderyError} `BINDERY_POLICY_INVALID` listing every mismatch between the table and the definitions.
   */
  constructor(table: PolicyTable, definitions: readonly PolicyDefinition[], options: PoliciesOptions) {
    this.table = table;
    this.#db = options.db;
    const code = checkDefinitions(table, definitions);
    for (const [policy, plan] of Object.entries(table)) {
      if (!this.#byTable.has(plan.table)) this.#byTable.set(plan.table, policy);
      for (const [action, actionPlan] of Object.entries(plan.actions)) {
        const name = `${policy}.${action}`;
        const own = code.get(name);
        this.#actions.set(name, {
          name,
          policy,
          action,
          table: plan.table,
          primaryKey: plan.primaryKey,
          plan: actionPlan,
          code: own === undefined ? undefined : codeAction(own),
          needsUser: actionPlan.rule === 'code' || readsUser(actionPlan.rule),
        });
      }
    }
  }

  /** The policy named `name`. @throws {BinderyError} `BINDERY_POLICY_INVALID` when there is none. */
  policy(name: string): PolicyPlan {
    const plan = this.table[name];
    if (plan === undefined || !Object.hasOwn(this.table, name))
      throw new BinderyError(
        'BINDERY_POLICY_INVALID',
        `No policy is named "${name}"; policies: ${Object.keys(this.table).join(', ') || 'none'}.`,
      );
    return plan;
  }

  /** Call `listener` for every denial from now on. */
  onDenied(listener: DenialListener): void {
    this.#listeners.push(listener);
  }

  /** The listeners of {@link onDenied}, in order. */
  get denialListeners(): readonly DenialListener[] {
    return this.#listeners;
  }

  /** The name of the policy of `table`, or undefined when no policy covers it. */
  policyOfTable(table: string): string | undefined {
    return this.#byTable.get(table);
  }

  /** Whether `name` (`documents.update`) is an action of a policy. */
  has(name: string): boolean {
    return this.#actions.has(name);
  }

  /** The plan of action `name` (`documents.update`). @throws {BinderyError} `BINDERY_POLICY_INVALID` for an unknown action. */
  actionPlan(name: string): PolicyActionPlan {
    return this.#action(name).plan;
  }

  /**
   * May `subject` do action `name` to `row` — or, without a row, to some row?
   *
   * In order: a bearer token must carry the action's ability; then the rule
   * decides. Without a row, parts that depend on the row count as possible
   * (the rows are narrowed by the scope instead). A guest is refused by
   * every rule but `public` ones and conditions on the row alone.
   * @throws {BinderyError} `BINDERY_POLICY_INVALID` for an unknown action; `BINDERY_POLICY_FAILED` when a TypeScript action throws.
   */
  async decide(subject: PolicySubject, name: string, row?: Row, options: DecideOptions = {}): Promise<Decision> {
    const ready = this.decideReady(subject, name, row, options);
    if (ready !== undefined) return ready;
    // Left: a TypeScript action, or a rule that reads the signed-in user's row.
    const action = this.#action(name);
    const user = action.needsUser && subject.id !== null ? await subject.user() : null;
    const caller = callerOf(subject, user);
    let verdict: Verdict;
    if (action.plan.rule !== 'code') verdict = evaluateRule(action.plan.rule, caller, row);
    else verdict = caller.id === null || user === null ? false : await codeVerdict(action.code!, action, this.#db, user, row);
    if (verdict !== false) return ALLOWED;
    return { allowed: false, reason: caller.id === null ? 'guest' : 'rule' };
  }

  /**
   * {@link decide} when the decision needs no waiting (no user to load, no
   * TypeScript action), else `undefined` (then call {@link decide}): the
   * request path decides at once when it can, without promises.
   */
  decideReady(subject: PolicySubject, name: string, row?: Row, options: DecideOptions = {}): Decision | undefined {
    const action = this.#action(name);
    const token = options.ability === false ? null : subject.token;
    if (token !== null && !token.abilities.includes(action.plan.ability))
      return { allowed: false, reason: 'ability', ability: action.plan.ability };
    if (action.plan.rule === 'code' || (action.needsUser && subject.id !== null)) return undefined;
    const caller = callerOf(subject, null);
    if (evaluateRule(action.plan.rule, caller, row) !== false) return ALLOWED;
    return { allowed: false, reason: caller.id === null ? 'guest' : 'rule' };
  }

  /**
   * {@link decide} without waiting, for views (`it.can`): the user must be
   * loaded already (the responder loads it before rendering a page).
   * @param user the loaded user (`await ctx.auth.user()`), null for a guest.
   * @throws {BinderyError} `BINDERY_POLICY_FAILED` when a TypeScript action throws or needs a promise.
   */
  decideNow(subject: PolicySubject, user: unknown, name: string, row?: Row): boolean {
    const action = this.#action(name);
    const token = subject.token;
    if (token !== null && !token.abilities.includes(action.plan.ability)) return false;
    const caller = callerOf(subject, user);
    if (action.plan.rule !== 'code') return evaluateRule(action.plan.rule, caller, row) !== false;
    if (caller.id === null || user === null || user === undefined) return false;
    return codeVerdictNow(action.code!, action, user, row) !== false;
  }

  /**
   * The rows of the action's table that `subject` may do action `name` to,
   * as a query condition: `query.where(await policies.scope(ctx.auth, 'documents.view'))`.
   * No row for a token without the action's ability, nor for a guest when
   * the rule needs a signed-in user.
   * @throws {BinderyError} `BINDERY_POLICY_UNSCOPED` for a code action without a scope; `BINDERY_POLICY_FAILED` when it throws.
   */
  async scope(subject: PolicySubject, name: string, options: DecideOptions = {}): Promise<RowScope> {
    const action = this.#action(name);
    const token = options.ability === false ? null : subject.token;
    if (token !== null && !token.abilities.includes(action.plan.ability)) return NO_ROWS;
    const user = action.needsUser && subject.id !== null ? await subject.user() : null;
    const caller = callerOf(subject, user);
    if (action.plan.rule !== 'code') return asScope(ruleScope(action.plan.rule, caller, action.table));
    if (caller.id === null || user === null) {
      codeScopeCheck(action);
      return NO_ROWS;
    }
    return codeScope(action.code!, action, user);
  }

  #action(name: string): CompiledAction {
    const action = this.#actions.get(name);
    if (action === undefined) {
      throw new BinderyError(
        'BINDERY_POLICY_INVALID',
        `No policy action is named "${name}"; write it as <policy>.<action>, one of: ${[...this.#actions.keys()].join(', ') || 'none'}.`,
      );
    }
    return action;
  }
}

/** A guest's scope of a code action is empty, but an action without a scope is still refused (the mistake shows for every caller). */
function codeScopeCheck(action: CompiledAction): void {
  if (action.code?.scope === undefined) codeScope(action.code ?? {}, action, null);
}

function callerOf(subject: PolicySubject, user: unknown): RuleCaller {
  if (subject.id === null) return { id: null, user: null };
  return { id: subject.id, user: user !== null && typeof user === 'object' ? (user as Record<string, unknown>) : null };
}
