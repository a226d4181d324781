/**
 * Reading every row of a query in batches by keyset (docs/http.md
 * "Unbounded answers"): the source of a streamed answer ({@link stream})
 * that holds one batch in memory, never the whole table.
 */
import { sql, type SelectQueryBuilder } from 'kysely';

/** Options of {@link keysetBatches}. */
export interface KeysetBatchOptions<Row> {
  /**
   * The member of each row holding its key: unique, never null, and ordered
   * (the primary key). It must be selected. Also the column compared and
   * ordered by, unless `column` names that.
   */
  readonly key: keyof Row & string;
  /** The column of the key when it is not `key` itself: `documents.id` in a join. */
  readonly column?: string;
  /** The most rows of one batch. Default 1,000. */
  readonly size?: number;
  /**
   * About how much text one batch holds, in characters (strings count their
   * length, other values a few characters; measured on up to 16 rows of the
   * batch before): after the first batch, which has at most 16 rows, each
   * batch has as many rows as fit, at least 1 and at most `size`. Default
   * 2 MiB (2,097,152).
   */
  readonly bytes?: number;
}

/** Rows of the first batch, before the rows' size is known. */
const FIRST_BATCH = 16;
/** The default of {@link KeysetBatchOptions.size}. */
const DEFAULT_SIZE = 1000;
/** The default of {@link KeysetBatchOptions.bytes}. */
const DEFAULT_BYTES = 2 * 1024 * 1024;

/**
 * Every row `query` selects, in batches ordered by the key: each batch is one
 * statement, `… where <key> > <the last key> order by <key> limit <n>`, read
 * while the batch before it is being written — one batch ahead, never more,
 * so a slow client slows the reading. Any order, limit or offset of `query`
 * is replaced. Batches are
 * separate statements, not one snapshot: a row that exists throughout is
 * read exactly once, a row added or removed meanwhile may or may not be.
 * @param query a Kysely select (with its own `where`s, joins, selection).
 * @returns an async iterable of non-empty arrays of rows.
 * @throws {TypeError} when a row has no value under `key` (it is not selected).
 * @example stream(keysetBatches(db.selectFrom('documents').selectAll().where('owner_id', '=', id), { key: 'id' }))
 */
export async function* keysetBatches<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  options: KeysetBatchOptions<O>,
): AsyncGenerator<O[], void, undefined> {
  const size = Math.max(1, Math.floor(options.size ?? DEFAULT_SIZE));
  const bytes = options.bytes ?? DEFAULT_BYTES;
  const ref = sql.ref(options.column ?? options.key);
  const base = query.clearOrderBy().clearLimit().clearOffset().orderBy(ref);
  const read = (after: unknown, limit: number): Promise<O[]> => {
    const rows = (after === undefined ? base : base.where(ref, '>', after as never)).limit(limit).execute();
    // Awaited later (or dropped when the stream is closed early): no unhandled rejection meanwhile.
    rows.catch(() => undefined);
    return rows;
  };
  let limit = Math.min(size, FIRST_BATCH);
  let pending = read(undefined, limit);
  for (;;) {
    const rows = await pending;
    if (rows.length === 0) return;
    const last = (rows[rows.length - 1] as Record<string, unknown>)[options.key];
    if (last === undefined || last === null)
      throw new TypeError(
        `keysetBatches: the rows have no "${options.key}" (select the key column, or name the member holding it as key).`,
      );
    if (rows.length < limit) {
      yield rows;
      return;
    }
    // The next batch is read while this one is written: the database's time overlaps the serializing.
    limit = nextLimit(rows, bytes, size);
    pending = read(last, limit);
    yield rows;
  }
}

/** Rows of a batch whose size is measured to size the next one, spread over the batch. */
const SAMPLE = 16;

/** The rows of the next batch: as many as fit in `bytes` by the size of (a sample of) `rows`, from 1 to `size`. */
function nextLimit(rows: readonly unknown[], bytes: number, size: number): number {
  const step = Math.max(1, Math.floor(rows.length / SAMPLE));
  let total = 0;
  let seen = 0;
  for (let i = 0; i < rows.length; i += step) {
    total += textSize(rows[i], 0);
    seen++;
  }
  const perRow = Math.max(1, total / seen);
  return Math.min(size, Math.max(1, Math.floor(bytes / perRow)));
}

/** About how many characters `value` takes as JSON: strings by their length, other scalars a few; nested values to a few levels. */
function textSize(value: unknown, depth: number): number {
  if (typeof value === 'string') return value.length + 2;
  if (value === null || typeof value !== 'object') return 8;
  if (value instanceof Date) return 26;
  if (ArrayBuffer.isView(value)) return value.byteLength;
  if (depth > 4) return 64;
  let n = 2;
  if (Array.isArray(value)) for (const item of value) n += textSize(item, depth + 1) + 1;
  else {
    const record = value as Record<string, unknown>;
    for (const k in record) n += k.length + 4 + textSize(record[k], depth + 1);
  }
  return n;
}
