/**
 * Query-level writes on a tracked table: the rows a condition selects are
 * written with one bulk entry (docs/spec.md 2.5, 6.1 rules 3, 5, 6;
 * docs/audit.md "Bulk writes").
 */
import type {
  ComparisonOperatorExpression,
  ExpressionOrFactory,
  OperandValueExpressionOrList,
  ReferenceExpression,
  SqlBool,
  UpdateObject,
} from 'kysely';
import type { AuditCore } from './core.js';
import { bulkForceDelete, bulkUpdate, type Selection } from './bulk-writer.js';
import { AuditModelError } from './errors.js';
import { runRead, type WriteTarget } from './sql-runner.js';
import type { ResolvedModel } from './tracked-config.js';
import type { Selectable } from 'kysely';
import type { UntypedTables } from '../db/any-kysely.js';
import { currentContext } from '../context/execution-context.js';

type Scope = 'live' | 'all' | 'deleted';
// biome-ignore lint/suspicious/noExplicitAny: a filter applies to the select, update and delete builders of a table named at run time; Kysely types each builder by its (static) table, so one filter for all three takes `any`.
type Filter = (query: any) => any;

interface State {
  readonly filters: readonly Filter[];
  readonly scope: Scope;
  readonly limit: number | undefined;
  /** The policy action whose scope narrows the write (default: the write's own, see {@link BulkQuery.authorize}). */
  readonly action?: string;
  /** The write is not narrowed by a policy ({@link BulkQuery.unscoped}). */
  readonly unscoped?: boolean;
}

/** The primary key value of table `T` (column `PK`). */
export type KeyOf<DB, T extends keyof DB, PK extends string> = PK extends keyof Selectable<DB[T]> ? Selectable<DB[T]>[PK] : string | number;

/**
 * A condition on a tracked table and the writes it can make. Immutable:
 * `where`, `withDeleted`, `onlyDeleted` and `limit` return a new query.
 *
 * On a soft-delete model only live rows are selected unless `withDeleted()`
 * or `onlyDeleted()` says otherwise (`restore()` always takes deleted rows,
 * `delete()` live ones).
 *
 * A write selects the matching keys `FOR UPDATE` (in key order), writes them
 * in chunks of 1,000, fails with a retryable {@link AuditBulkConflictError}
 * (rolling everything back) if a chunk changes fewer rows than it holds, and
 * records one `audit_bulk` entry with the condition, the assignments, the
 * row count, the values before (and after) for up to `AUDIT_BULK_MAX_VALUES`
 * rows, and every key in `audit_bulk_items`. Nothing is recorded when no row
 * matched.
 *
 * Inside a request of an app with policies, a write on a table with a policy
 * touches only the rows the caller may: the scope of the policy's `update`,
 * `delete`, `restore` (or `forceDelete`, else `delete`) action is added to
 * the condition — no row when the policy does not declare the action
 * (docs/authorization.md "Bulk writes"). Jobs and commands are not narrowed.
 */
export class BulkQuery<DB = UntypedTables, T extends keyof DB & string = UntypedTables, PK extends string = string> {
  readonly #core: AuditCore;
  readonly #model: ResolvedModel;
  readonly #target: WriteTarget;
  readonly #state: State;

  /** @internal Made by `TrackedModel.query()`. */
  constructor(core: AuditCore, model: ResolvedModel, target: WriteTarget, state: State = { filters: [], scope: 'live', limit: undefined }) {
    this.#core = core;
    this.#model = model;
    this.#target = target;
    this.#state = state;
  }

  /** Add a condition, as Kysely's `where` (all conditions must hold). */
  where<RE extends ReferenceExpression<DB, T>>(
    lhs: RE,
    op: ComparisonOperatorExpression,
    rhs: OperandValueExpressionOrList<DB, T, RE>,
  ): BulkQuery<DB, T, PK>;
  where(expression: ExpressionOrFactory<DB, T, SqlBool>): BulkQuery<DB, T, PK>;
  where(...args: unknown[]): BulkQuery<DB, T, PK> {
    return this.#with({ filters: [...this.#state.filters, (query) => query.where(...args)] });
  }

  /** Select soft-deleted rows too. */
  withDeleted(): BulkQuery<DB, T, PK> {
    return this.#with({ scope: 'all' });
  }

  /** Select only soft-deleted rows. */
  onlyDeleted(): BulkQuery<DB, T, PK> {
    return this.#with({ scope: 'deleted' });
  }

  /**
   * Narrow the write by the scope of policy action `action` (`archive`)
   * instead of the write's own (`update` for {@link update}, …).
   */
  authorize(action: string): BulkQuery<DB, T, PK> {
    return this.#with({ action });
  }

  /**
   * Do not narrow the write by the table's policy: for a request that
   * writes on the app's behalf (a counter, a cleanup), never with a
   * condition the caller chose.
   */
  unscoped(): BulkQuery<DB, T, PK> {
    return this.#with({ unscoped: true });
  }

  /** Select at most `n` rows (the first by key). */
  limit(n: number): BulkQuery<DB, T, PK> {
    if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`limit must be a non-negative integer, got ${n}`);
    return this.#with({ limit: n });
  }

  /** The keys of the selected rows, in key order (a read: not logged, not locked). */
  async keys(): Promise<KeyOf<DB, T, PK>[]> {
    const m = this.#model;
    let query = this.#selection().apply(this.#core.db.selectFrom(m.table).select(m.pk)).orderBy(m.pk);
    if (this.#state.limit !== undefined) query = query.limit(this.#state.limit);
    const result = await runRead<Record<string, unknown>>(this.#target, query.compile());
    return result.rows.map((r) => r[m.pk] as KeyOf<DB, T, PK>);
  }

  /** How many rows are selected (a read). */
  async count(): Promise<number> {
    return (await this.keys()).length;
  }

  /**
   * Update the selected rows; entry `updated`. `updated_at` is set to now
   * unless assigned. An update of only excluded columns (and timestamps) is
   * not logged (docs/spec.md 6.1 rule 6).
   * @returns the number of rows updated.
   */
  async update(values: UpdateObject<DB, T>): Promise<number> {
    const selection = await this.#authorized('update', this.#selection());
    return bulkUpdate(this.#core, this.#model, this.#target, selection, values as Record<string, unknown>, 'updated');
  }

  /**
   * Delete the selected rows: soft (entry `deleted`) on a soft-delete model,
   * else force (entry `force_deleted`).
   * @returns the number of rows deleted.
   */
  async delete(): Promise<number> {
    const m = this.#model;
    if (m.softDelete === null) return this.forceDelete();
    const selection = await this.#authorized('delete', this.#selection('live'));
    return bulkUpdate(this.#core, this.#model, this.#target, selection, { [m.softDelete]: this.#core.writer.now }, 'deleted');
  }

  /**
   * Restore the selected soft-deleted rows (entry `restored`).
   * @throws {AuditModelError} on a model without soft delete.
   */
  async restore(): Promise<number> {
    const m = this.#model;
    if (m.softDelete === null)
      throw new AuditModelError(`${m.config.resource} (table ${m.table}) has no soft delete, so its rows cannot be restored.`);
    const selection = await this.#authorized('restore', this.#selection('deleted'));
    return bulkUpdate(this.#core, this.#model, this.#target, selection, { [m.softDelete]: null }, 'restored');
  }

  /**
   * Remove the selected rows (entry `force_deleted`, with the values they had).
   * @returns the number of rows removed.
   */
  async forceDelete(): Promise<number> {
    return bulkForceDelete(this.#core, this.#model, this.#target, await this.#authorized('forceDelete', this.#selection()));
  }

  #with(change: Partial<State>): BulkQuery<DB, T, PK> {
    return new BulkQuery<DB, T, PK>(this.#core, this.#model, this.#target, { ...this.#state, ...change });
  }

  /** `selection` narrowed by the policy of the table for the caller of the request running now, if any. */
  async #authorized(write: 'update' | 'delete' | 'restore' | 'forceDelete', selection: Selection): Promise<Selection> {
    const context = this.#state.unscoped === true ? undefined : currentContext();
    if (context?.policyScope === undefined) return selection;
    const condition = await context.policyScope(this.#model.table, this.#state.action ?? write);
    if (condition === undefined) return selection;
    return { limit: selection.limit, apply: (query) => selection.apply(query).where(condition) };
  }

  #selection(scope: Scope = this.#state.scope): Selection {
    const { softDelete } = this.#model;
    const filters = this.#state.filters;
    return {
      limit: this.#state.limit,
      apply(query) {
        let q = query;
        if (softDelete !== null && scope !== 'all') q = q.where(softDelete, scope === 'live' ? 'is' : 'is not', null);
        for (const filter of filters) q = filter(q);
        return q;
      },
    };
  }
}
