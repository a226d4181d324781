/**
 * Running the actions written in TypeScript (`definePolicy`; docs/
 * authorization.md "Writing a policy in TypeScript"): their checks, their
 * scopes, and the row check made from a scope when no check is given.
 *
 * A function that throws, or answers anything but `true`, never allows:
 * a throw becomes `BINDERY_POLICY_FAILED` (500, logged with the request
 * ID by the error response), a non-`true` answer is a denial.
 */
import { expressionBuilder, sql, type Expression, type SqlBool } from 'kysely';
import { BinderyError } from '../errors/bindery-error.js';
import type { AnyKysely } from '../db/any-kysely.js';
import type { AnyPolicyCode } from './define-policy.js';
import type { Row, Verdict } from './rules.js';
import { ALL_ROWS, NO_ROWS, type RowScope } from './scopes.js';

/** The object form of any action written in TypeScript: {@link AnyPolicyCode} without its bare-function form. */
export type AnyCodeAction = Exclude<AnyPolicyCode, (...args: never[]) => unknown>;

/** The object form of `code` (a bare function is its `check`). */
export function codeAction(code: AnyPolicyCode): AnyCodeAction {
  return typeof code === 'function' ? { check: code } : code;
}

/** What a code action runs against. */
export interface CodeTarget {
  /** `documents.update`, for messages. */
  readonly name: string;
  readonly table: string;
  readonly primaryKey: string;
}

/**
 * The verdict of a code action for a signed-in `user` on `row` (absent: no row).
 * @param db reads the row through the scope when the action has no `check`.
 * @throws {BinderyError} `BINDERY_POLICY_FAILED` when the action throws.
 */
export async function codeVerdict(
  action: AnyCodeAction,
  target: CodeTarget,
  db: AnyKysely,
  user: unknown,
  row: Row | undefined,
): Promise<Verdict> {
  try {
    if (row === undefined) return action.withoutRow === undefined ? undefined : (await action.withoutRow(user)) === true;
    if (action.check !== undefined) return (await action.check(user, row)) === true;
    const scope = codeScope(action, target, user);
    const key = row[target.primaryKey];
    const found = await db
      .selectFrom(target.table)
      .select(sql<number>`1`.as('one'))
      .where(sql.ref(`${target.table}.${target.primaryKey}`), '=', key)
      .where(scope)
      .executeTakeFirst();
    return found !== undefined;
  } catch (error) {
    if (error instanceof BinderyError && error.code === 'BINDERY_POLICY_FAILED') throw error;
    throw failed(target, error);
  }
}

/**
 * The same verdict, without waiting (pages: `it.can` in a view). A check
 * that needs a promise, or a scope (it needs the database), cannot answer here.
 * @throws {BinderyError} `BINDERY_POLICY_FAILED` when the action throws or cannot answer synchronously.
 */
export function codeVerdictNow(action: AnyCodeAction, target: CodeTarget, user: unknown, row: Row | undefined): Verdict {
  let answer: unknown;
  try {
    if (row === undefined) {
      if (action.withoutRow === undefined) return undefined;
      answer = action.withoutRow(user);
    } else if (action.check !== undefined) {
      answer = action.check(user, row);
    } else {
      throw new Error('it has no check function (only a scope, which needs the database)');
    }
  } catch (error) {
    throw failed(target, error, ' in a view');
  }
  if (answer instanceof Promise) {
    answer.catch(() => undefined);
    throw failed(target, new Error('it answered with a promise; views need a synchronous check'), ' in a view');
  }
  return answer === true;
}

/**
 * The scope of a code action for a signed-in `user`, built now (so a throw is
 * reported here, not in the middle of the query that uses it).
 * @throws {BinderyError} `BINDERY_POLICY_FAILED` when the scope throws; `BINDERY_POLICY_UNSCOPED` when the action has none.
 */
export function codeScope(action: AnyCodeAction, target: CodeTarget, user: unknown): RowScope {
  if (action.scope === undefined) {
    throw new BinderyError(
      'BINDERY_POLICY_UNSCOPED',
      `The policy action ${target.name} has no scope: a list, an included relation, a bulk write or ctx.scope needs one. Give definePolicy a scope for it (and write { code: true, scope: true } in the YAML).`,
    );
  }
  let built: Expression<SqlBool> | boolean;
  try {
    built = action.scope(user, expressionBuilder());
  } catch (error) {
    throw failed(target, error, ' (its scope)');
  }
  if (built === true) return ALL_ROWS;
  if (built === false || built === undefined || built === null) return NO_ROWS;
  const condition = built;
  return () => condition;
}

function failed(target: CodeTarget, error: unknown, where = ''): BinderyError {
  const reason = error instanceof Error ? error.message : String(error);
  return new BinderyError(
    'BINDERY_POLICY_FAILED',
    `The policy action ${target.name}${where} failed: ${reason}. The request is refused; fix the definePolicy function.`,
    { cause: error },
  );
}
