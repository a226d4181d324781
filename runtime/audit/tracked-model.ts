/**
 * A tracked model: the data layer through which writes to a tracked table
 * go, each with its audit entry (docs/spec.md 6.1; docs/audit.md "Writing").
 *
 * The checks and the attribution are here; the statements are the engine's
 * writer strategy's (writers/writer.ts; docs/audit.md "Engines"). A write and
 * the entry that follows it commit or roll back together (a savepoint wraps
 * them inside a caller's transaction); an update first reads the row locked,
 * and the entry's old values are that locked row (docs/spec.md 6.1 rule 2).
 */
import type { Expression, ExpressionBuilder, Insertable, Kysely, Selectable, SqlBool, UpdateObject } from 'kysely';
import type { AuditCore } from './core.js';
import { attribute } from './attribution.js';
import { BulkQuery, type KeyOf } from './bulk-query.js';

export type { KeyOf };
import { bulkCreate, bulkUpsert, type UpsertOptions } from './bulk-writer.js';
import { checkKey, keyChange, rethrowWriteError } from './entries.js';
import { AuditModelError } from './errors.js';
import { runRead, type StatementResult, type WriteTarget } from './sql-runner.js';
import { historyPage, type HistoryOptions, type HistoryPage } from './history.js';
import type { ResolvedModel, TrackedResourceConfig } from './tracked-config.js';
import type { Values } from './writers/writer.js';
import type { AnyKysely } from '../db/any-kysely.js';
import type { UntypedTables } from '../db/any-kysely.js';

/** A row of table `T` as selected. */
export type RowOf<DB, T extends keyof DB> = Selectable<DB[T]>;
/** An extra condition a row must meet, e.g. `(eb) => eb('owner_id', '=', callerId)`. */
export type RowCondition<DB, T extends keyof DB> = (eb: ExpressionBuilder<DB, T>) => Expression<SqlBool>;

/** Options of the single-row writes. */
export interface RowOptions<DB, T extends keyof DB> {
  /** A condition the row must also meet (its owner, say): a row that does not is not found. */
  readonly where?: RowCondition<DB, T>;
  /** On a soft-delete model, `find` and `update` also see deleted rows. Default false. */
  readonly withDeleted?: boolean;
}

/**
 * The typed data layer of one tracked table: `ctx.services.models.Document`.
 *
 * Every write records its entry in the same transaction, after the write
 * (docs/spec.md 6.1 rule 1); reads are not logged. Entries are attributed by the
 * execution context (docs/spec.md 5.8, `runtime/context`). Methods resolve to the
 * row as written, or `undefined` when no row has the key (or meets `where`).
 *
 * @example
 *   const doc = await ctx.services.models.Document.update(42, { title: 'New' }, { where: (eb) => eb('owner_id', '=', 7) });
 *   if (!doc) throw new NotFoundError();
 */
export class TrackedModel<DB = UntypedTables, T extends keyof DB & string = UntypedTables, PK extends string = string> {
  readonly #core: AuditCore;
  readonly #model: ResolvedModel;
  readonly #target: WriteTarget;

  /** @internal Made by `AuditLog.track`. */
  constructor(core: AuditCore, model: ResolvedModel, target?: WriteTarget) {
    this.#core = core;
    this.#model = model;
    this.#target = target ?? { kind: 'pool', engine: core.engine };
  }

  /** The resource name, e.g. `Document`. */
  get name(): string {
    return this.#model.config.resource;
  }

  /** The table name (the entries' subject type). */
  get table(): T {
    return this.#model.table as T;
  }

  /** The primary key column. */
  get primaryKey(): PK {
    return this.#model.pk as PK;
  }

  /** The audit configuration the model was tracked with (`generated/audit.ts`). */
  get config(): TrackedResourceConfig {
    return this.#model.config;
  }

  /**
   * One page of a row's history: its entries and the bulk writes that
   * touched it, newest first (deleted rows included); see `readHistory`.
   * @throws {AuditCursorError} (400) for a bad cursor.
   */
  async history(key: KeyOf<DB, T, PK>, options: HistoryOptions = {}): Promise<HistoryPage> {
    return historyPage(this.#core.writer, this.#core.db, this.#model.table, String(key), options);
  }

  /**
   * The same model writing inside `db`: a Kysely transaction (each write
   * then runs in a savepoint of it, and commits or rolls back with it), or
   * any Kysely instance.
   * @example await db.transaction().execute((trx) => models.Document.using(trx).update(1, { title: 'x' }))
   */
  using(db: Kysely<DB>): TrackedModel<DB, T, PK> {
    return new TrackedModel(this.#core, this.#model, { kind: 'kysely', db: db as AnyKysely });
  }

  /**
   * Read one row by key (not logged). Soft-deleted rows only with `withDeleted`.
   */
  async find(key: KeyOf<DB, T, PK>, options: RowOptions<DB, T> = {}): Promise<RowOf<DB, T> | undefined> {
    const m = this.#model;
    let query = this.#db
      .selectFrom(m.table)
      .select([...m.columns])
      .where(m.pk, '=', key);
    if (m.softDelete !== null && !options.withDeleted) query = query.where(m.softDelete, 'is', null);
    if (options.where) query = query.where(options.where as never);
    const result = await runRead<RowOf<DB, T>>(this.#target, query.compile());
    return result.rows[0];
  }

  /**
   * Insert a row; entry `created` with its values (docs/spec.md 2.4).
   * @throws the database error of the insert (e.g. a unique violation), {@link AuditKeyTooLongError}.
   */
  async create(values: Insertable<DB[T]>): Promise<RowOf<DB, T>> {
    const m = this.#model;
    const given = (values as Record<string, unknown>)[m.pk];
    if (given !== undefined && given !== null) checkKey(m, given);
    const a = await attribute(this.#core.settings.AUDIT_IP);
    const rows = await this.#write(this.#core.writer.create(this.#db, this.#target, m, a, values as Values));
    return rows[0]!;
  }

  /**
   * Update one row; entry `updated` with the old and new values of the
   * changed columns. The row is read `FOR UPDATE` first. Columns left out of
   * the log (`except`) and timestamps do not count as changes: an update
   * changing only those writes no entry. `updated_at` is set to now unless
   * given. Undefined values are ignored; with none left, nothing is written.
   * The key cannot change ({@link AuditModelError}).
   * @returns the updated row, or undefined when no (live) row has the key and meets `where`.
   */
  async update(key: KeyOf<DB, T, PK>, values: UpdateObject<DB, T>, options: RowOptions<DB, T> = {}): Promise<RowOf<DB, T> | undefined> {
    const m = this.#model;
    checkKey(m, key);
    const set = Object.fromEntries(Object.entries(values as Record<string, unknown>).filter(([, v]) => v !== undefined));
    if (m.pk in set) throw keyChange(m);
    if (Object.keys(set).length === 0) return this.find(key, options);
    if (m.updatedAt !== null && !(m.updatedAt in set)) set[m.updatedAt] = this.#core.writer.now;
    const a = await attribute(this.#core.settings.AUDIT_IP);
    return (await this.#write(this.#core.writer.update(this.#db, this.#target, m, a, key, set, options)))[0];
  }

  /**
   * Write every column of `row` (but its key) back: an update of the row by
   * its key (docs/spec.md 6.1 "update, save").
   */
  async save(row: RowOf<DB, T>): Promise<RowOf<DB, T> | undefined> {
    const m = this.#model;
    const { [m.pk]: key, ...rest } = row as Record<string, unknown>;
    // Written back as they are: created_at and a soft-delete marker included.
    return this.update(key as KeyOf<DB, T, PK>, rest as UpdateObject<DB, T>, { withDeleted: true });
  }

  /**
   * Delete one row: on a soft-delete model, set its deleted marker (entry
   * `deleted`; the row stays); otherwise remove it (entry `force_deleted`).
   * @returns the row as deleted, or undefined when no live row has the key and meets `where`.
   */
  async delete(key: KeyOf<DB, T, PK>, options: Pick<RowOptions<DB, T>, 'where'> = {}): Promise<RowOf<DB, T> | undefined> {
    if (this.#model.softDelete === null) return this.forceDelete(key, options);
    return this.#mark(key, options, 'deleted');
  }

  /**
   * Restore a soft-deleted row (entry `restored`).
   * @returns the row, or undefined when no deleted row has the key and meets `where`.
   * @throws {AuditModelError} on a model without soft delete.
   */
  async restore(key: KeyOf<DB, T, PK>, options: Pick<RowOptions<DB, T>, 'where'> = {}): Promise<RowOf<DB, T> | undefined> {
    return this.#mark(key, options, 'restored');
  }

  /**
   * Remove one row, live or soft-deleted; entry `force_deleted` with the values it had.
   * @returns the removed row, or undefined when no row has the key and meets `where`.
   */
  async forceDelete(key: KeyOf<DB, T, PK>, options: Pick<RowOptions<DB, T>, 'where'> = {}): Promise<RowOf<DB, T> | undefined> {
    const m = this.#model;
    checkKey(m, key);
    const a = await attribute(this.#core.settings.AUDIT_IP);
    return (await this.#write(this.#core.writer.forceDelete(this.#db, this.#target, m, a, key, options.where)))[0];
  }

  /**
   * A query-level write on the rows a condition selects: one bulk entry
   * (docs/spec.md 2.5, 6.1 rules 3, 5, 6). Soft-deleted rows are left out unless
   * asked for.
   * @example const n = await models.Document.query().where('owner_id', '=', 7).where('status', '=', 'published').update({ status: 'archived' });
   */
  query(): BulkQuery<DB, T, PK> {
    return new BulkQuery<DB, T, PK>(this.#core, this.#model, this.#target);
  }

  /**
   * Insert many rows (chunks of 1,000) with one bulk entry `created`.
   * @returns the number of rows inserted.
   */
  async createMany(rows: readonly Insertable<DB[T]>[]): Promise<number> {
    return bulkCreate(this.#core, this.#model, this.#target, rows as readonly Record<string, unknown>[]);
  }

  /**
   * Insert rows, or update those whose conflict columns match (one bulk entry
   * `upserted`). Every row needs a value in each conflict column; a null, or a
   * zero generated key, is refused (docs/spec.md 6.1 rule 7).
   * @returns the number of rows inserted or updated.
   * @throws {AuditUpsertKeyError} before writing anything.
   */
  async upsert(rows: readonly Insertable<DB[T]>[], options: UpsertOptions<DB[T]> = {}): Promise<number> {
    return bulkUpsert(this.#core, this.#model, this.#target, rows as readonly Record<string, unknown>[], options as UpsertOptions<unknown>);
  }

  get #db(): AnyKysely {
    return this.#core.db;
  }

  async #mark(key: unknown, options: Pick<RowOptions<DB, T>, 'where'>, action: 'deleted' | 'restored'): Promise<RowOf<DB, T> | undefined> {
    const m = this.#model;
    if (m.softDelete === null)
      throw new AuditModelError(
        `${m.config.resource} (table ${m.table}) has no soft delete, so its rows cannot be restored; add "softDelete: true" to the resource.`,
      );
    checkKey(m, key);
    const a = await attribute(this.#core.settings.AUDIT_IP);
    return (await this.#write(this.#core.writer.mark(this.#db, this.#target, m, a, key, options.where, action)))[0];
  }

  /** The rows a write resolved to, its errors as the log reports them. */
  async #write(written: Promise<StatementResult<Values>>): Promise<RowOf<DB, T>[]> {
    try {
      return (await written).rows as RowOf<DB, T>[];
    } catch (error) {
      rethrowWriteError(this.#model, error);
    }
  }
}
