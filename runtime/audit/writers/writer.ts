/**
 * The audit log's writer strategy (docs/audit.md "Engines"): everything the
 * audit layer does that depends on the database engine — the single-row
 * writes and the entry each records, the statements of a bulk write's
 * chunks, the bulk entry, the history query, the prune's batches. The rules
 * (what is logged, redacted, refused, chunked, attributed) stay in the
 * neutral modules beside it; a strategy only says how its engine does each
 * step. One strategy per engine, named for it (`postgres.ts`), chosen by
 * `writerFor` (`for-engine.ts`) from `DatabaseEngine.name`.
 *
 * Arguments are neutral: the resolved model (table, key, column lists), the
 * attribution values, values and keys, aliases of the caller's choosing.
 */
import type { RawBuilder } from 'kysely';
import type { AnyKysely } from '../../db/any-kysely.js';
import type { EngineName } from '../../db/engine.js';
import type { Attribution } from '../attribution.js';
import type { Runner, StatementResult, WriteTarget } from '../sql-runner.js';
import type { ResolvedModel } from '../tracked-config.js';

/** A row's or an entry's values by column. */
export type Values = Record<string, unknown>;

/** What a bulk entry records. */
export type Action = 'updated' | 'deleted' | 'restored' | 'force_deleted' | 'created' | 'upserted';

/** The `audit_bulk` entry of one bulk write. */
export interface BulkEntry {
  readonly action: Action;
  readonly rowCount: number;
  readonly where: { sql: string; args: unknown[] } | null;
  readonly assignments: Values | null;
  readonly before: Values | null;
  readonly after: Values | null;
  readonly complete: boolean;
}

/** The rows a bulk write acts on: its conditions (soft-delete scope included) and limit. (framework-internal: not exported by an entry). */
export interface Selection {
  // biome-ignore lint/suspicious/noExplicitAny: the selection applies to select, update and delete builders of a table named at run time (see the Filter of bulk-query.ts).
  apply(query: any): any;
  readonly limit: number | undefined;
}

/** What a chunk of selected keys wrote: how many rows, and their values before and after (by key as text) while under the limit. */
export interface ChunkRow {
  readonly n: number;
  readonly before?: Values | null;
  readonly after?: Values | null;
}

/**
 * Write one chunk of selected (and locked) keys, storing each key in
 * `audit_bulk_items` under `bulkId`; with `withValues`, also return the
 * values before and after.
 */
export type KeyChunkWriter = (run: Runner, keys: unknown[], bulkId: number, withValues: boolean) => Promise<ChunkRow>;

/** What a chunk of given rows (an insert or an upsert) wrote: how many, and `[key as text, values]` pairs before and after, in order. */
export interface RowChunk {
  readonly n: number;
  readonly before: readonly (readonly [string, unknown])[];
  readonly after: readonly (readonly [string, unknown])[];
}

/**
 * Write one chunk of given rows, storing each key in `audit_bulk_items`
 * under `bulkId`; `room` is how many rows' values the entry still keeps
 * (0: none are needed).
 */
export type RowChunkWriter = (run: Runner, rows: readonly Values[], bulkId: number, room: number) => Promise<RowChunk>;

/** The columns of an upsert (docs/audit.md "Bulk writes"). */
export interface UpsertPlan {
  /** The columns of the unique index matched on. */
  readonly conflict: readonly string[];
  /** The columns overwritten when the row exists. */
  readonly updated: readonly string[];
  /** The columns whose values before an existing row keeps (logged, not timestamps). */
  readonly beforeColumns: readonly string[];
  /** The columns whose values after each row keeps. */
  readonly afterColumns: readonly string[];
}

/** Which rows a single-row write may touch besides its key. */
export interface RowFilter {
  /** A Kysely condition on the table (an expression or a factory of one). */
  readonly where?: unknown;
  /** On a soft-delete model, deleted rows count too. */
  readonly withDeleted?: boolean;
}

/** Where a history page starts: after the event at `at` (the text the history gave), of `kind` (0 entry, 1 bulk), with entry ID `id`. */
export interface HistoryCursor {
  readonly at: string;
  readonly kind: 0 | 1;
  readonly id: number;
}

/** One event of a row's history as read: an entry (`kind` 0) or a bulk write that touched the row (`kind` 1). */
export interface HistoryRow {
  kind: 0 | 1;
  id: number;
  occurred_at: Date;
  /** `occurred_at` as text, exact to the microsecond: what a cursor keeps. */
  at_text: string;
  actor_type: string;
  actor_id: string | null;
  action: string;
  via_name: string | null;
  changes: { old?: Record<string, unknown>; new?: Record<string, unknown> } | null;
  properties: Record<string, unknown> | null;
  row_count: number | null;
}

/**
 * How one engine writes and reads the audit log. Single-row writes resolve
 * to the statement's result, its rows the rows as written (none when no row
 * matched); each records its
 * `audit_log` entry in the same transaction, after the write, or none (an
 * update that changed no compared column). Writes run on `target` (the pool,
 * or a caller's Kysely instance or transaction: sql-runner.ts); `db` builds
 * and compiles the statements.
 */
export interface AuditWriter {
  /** The engine the strategy is for. */
  readonly engine: EngineName;
  /**
   * The current time as the engine writes it into the timestamps the log
   * sets (`updated_at`, the soft-delete marker): PostgreSQL's `now()`,
   * MySQL's `current_timestamp(6)` (its `now()` has whole seconds).
   */
  readonly now: RawBuilder<unknown>;
  /**
   * The text of a JSON document the log stores (an application event's
   * details): as `JSON.stringify` on PostgreSQL, whose `jsonb` orders the
   * members itself; in jsonb's member order on MySQL, which keeps the text
   * as written — so a document reads the same on both.
   */
  documentText(value: unknown): string;

  /** Insert a row; entry `created` with its logged values. */
  create(db: AnyKysely, target: WriteTarget, model: ResolvedModel, a: Attribution, values: Values): Promise<StatementResult<Values>>;
  /**
   * Update the row of `key` (live unless `filter.withDeleted`, meeting
   * `filter.where`) with `set`, reading it locked first; entry `updated`
   * with the old and new values of the compared columns that changed, none
   * when nothing did.
   */
  update(
    db: AnyKysely,
    target: WriteTarget,
    model: ResolvedModel,
    a: Attribution,
    key: unknown,
    set: Values,
    filter: RowFilter,
  ): Promise<StatementResult<Values>>;
  /** Set (`deleted`) or clear (`restored`) the soft-delete marker of the row of `key`, live or deleted respectively; entry without changes. */
  mark(
    db: AnyKysely,
    target: WriteTarget,
    model: ResolvedModel,
    a: Attribution,
    key: unknown,
    where: unknown,
    action: 'deleted' | 'restored',
  ): Promise<StatementResult<Values>>;
  /** Remove the row of `key`; entry `force_deleted` with the logged values it had. */
  forceDelete(
    db: AnyKysely,
    target: WriteTarget,
    model: ResolvedModel,
    a: Attribution,
    key: unknown,
    where: unknown,
  ): Promise<StatementResult<Values>>;

  /** The ID of the next `audit_bulk` entry, taken (inside the bulk write's transaction) before the chunks that refer to it. */
  reserveBulkId(db: AnyKysely, run: Runner): Promise<number>;
  /** Write the `audit_bulk` entry of ID `bulkId` (the bulk write's last statement). */
  insertBulkEntry(db: AnyKysely, run: Runner, model: ResolvedModel, a: Attribution, bulkId: number, entry: BulkEntry): Promise<void>;
  /** The chunk writer of an update of selected keys with `set`; values before and after are those of the `logged` columns. */
  updateChunks(db: AnyKysely, model: ResolvedModel, set: Values, logged: readonly string[]): KeyChunkWriter;
  /** The chunk writer of a removal of selected keys; values before are the logged columns. */
  deleteChunks(db: AnyKysely, model: ResolvedModel): KeyChunkWriter;
  /** The chunk writer of an insert of given rows; values after are those of `columns`. */
  insertChunks(db: AnyKysely, model: ResolvedModel, columns: readonly string[]): RowChunkWriter;
  /** The chunk writer of an upsert: existing rows are locked and read first, then inserted or updated. */
  upsertChunks(db: AnyKysely, model: ResolvedModel, plan: UpsertPlan): RowChunkWriter;
  /** How an upsert's assignment of `column` (the value the row would have been inserted with) is stored in the entry. */
  upsertAssignment(column: string): { sql: string; args: unknown[] };
  /** Update the selected rows without logging (only excluded columns and timestamps change). @returns the rows updated. */
  updateUnlogged(db: AnyKysely, target: WriteTarget, model: ResolvedModel, selection: Selection, set: Values): Promise<number>;

  /** Up to `limit` newest events of a row after `cursor`: its entries and the bulk writes that touched it, newest first (entries before bulk entries at equal times, then by ID). */
  history(db: AnyKysely, subjectType: string, subjectId: string, limit: number, cursor: HistoryCursor | undefined): Promise<HistoryRow[]>;
  /** Delete up to `batch` `audit_log` entries written before `before`, oldest first. @returns how many. */
  pruneEntries(db: AnyKysely, before: Date, batch: number): Promise<number>;
  /** Delete up to `batch` `audit_bulk` entries written before `before` with their items, oldest first, in one transaction. @returns how many entries. */
  pruneBulk(db: AnyKysely, before: Date, batch: number): Promise<number>;
}
