/**
 * Writes whose SQL differs by engine, written once (docs/database.md
 * "Writing portable queries"): insert or update and return the row
 * (`INSERT … RETURNING` where the engine has it, else the write followed by
 * a read of the row by its key), and inserts that meet an existing key
 * (PostgreSQL's `ON CONFLICT`, MySQL's `ON DUPLICATE KEY UPDATE`).
 * Application code uses these instead of Kysely's `.returningAll()` and
 * `.onConflict()`, which not every engine has.
 */
import {
  NoResultError,
  sql,
  type Insertable,
  type InsertQueryBuilder,
  type InsertQueryNode,
  type InsertResult,
  type Kysely,
  type OperationNode,
  type Selectable,
  type UpdateObject,
} from 'kysely';
import type { AnyKysely } from './any-kysely.js';
import { compiledQuery } from './compiled-query.js';
import { isUniqueViolation } from './database-errors.js';
import { postgresOnConflict } from './engines/postgres/conflicts.js';
import { returningAll } from './engines/postgres/returning.js';
import { UnsafeIntegerError } from './errors.js';
import { sqlDialectOf } from './sql-dialect.js';

/** Options of {@link insertReturning} and {@link updateReturning}. */
export interface ReturningOptions {
  /** The primary key column (default `id`). */
  readonly key?: string;
}

const supportsReturning = (db: AnyKysely): boolean => db.getExecutor().adapter.supportsReturning;

/**
 * Insert one row into `table` and return it as stored (defaults and generated key included).
 *
 * @param db the app's Kysely instance or a transaction of it.
 * @param values the row's columns.
 * @returns the row as the database holds it after the insert.
 * @throws the database's error for a failing insert (`isUniqueViolation(error)` tells a duplicate key).
 * @example
 *   const note = await insertReturning(ctx.services.db, 'notes', { title, tags });
 */
export async function insertReturning<DB, T extends keyof DB & string>(
  db: Kysely<DB>,
  table: T,
  values: Insertable<DB[T]>,
  options: ReturningOptions = {},
): Promise<Selectable<DB[T]>> {
  const k = db as unknown as AnyKysely;
  const insert = k.insertInto(table).values(values as never);
  if (supportsReturning(k)) return (await returningAll(insert).executeTakeFirstOrThrow()) as Selectable<DB[T]>;
  const column = options.key ?? 'id';
  const result = await insert.executeTakeFirstOrThrow();
  const given = (values as Record<string, unknown>)[column];
  const key = given ?? insertedKey(result.insertId);
  return (await k.selectFrom(table).selectAll().where(column, '=', key).executeTakeFirstOrThrow()) as Selectable<DB[T]>;
}

/**
 * Update the row of `table` whose key is `key` and return it as stored, or
 * `undefined` when no row has the key.
 *
 * @example
 *   const user = await updateReturning(trx, 'users', me.id, { avatar });
 */
export async function updateReturning<DB, T extends keyof DB & string>(
  db: Kysely<DB>,
  table: T,
  key: unknown,
  values: UpdateObject<DB, T>,
  options: ReturningOptions = {},
): Promise<Selectable<DB[T]> | undefined> {
  const k = db as unknown as AnyKysely;
  const column = options.key ?? 'id';
  const update = k
    .updateTable(table as string)
    .set(values as never)
    .where(sql.ref(column), '=', key);
  if (supportsReturning(k)) return (await returningAll(update).executeTakeFirst()) as Selectable<DB[T]> | undefined;
  await update.execute();
  return (await k.selectFrom(table).selectAll().where(column, '=', key).executeTakeFirst()) as Selectable<DB[T]> | undefined;
}

/**
 * An insert compiled once (docs/database.md "Compiled queries") that returns
 * the inserted row: on an engine with `RETURNING`, the insert and
 * `returning *` run as one compiled statement; elsewhere the insert runs,
 * then the row is read by its key (the one the database generated, or the
 * one the insert gave).
 *
 * `build` follows the rules of `compiledQuery`: each argument used once, as
 * a single value of the insert.
 *
 * @param build makes the insert (without `returning`) from the database and the argument stand-ins.
 * @returns `run(db, ...args)`: the row as stored.
 * @throws the database's error for a failing insert (`isUniqueViolation(error)` tells a duplicate key).
 * @example
 *   const insertNote = compiledInsertReturning((db: Kysely<Database>, title: string) => db.insertInto('notes').values({ title }));
 *   const note = await insertNote(ctx.services.db, input.title);
 */
export function compiledInsertReturning<DB, T extends keyof DB & string, A extends unknown[]>(
  build: (db: Kysely<DB>, ...args: A) => InsertQueryBuilder<DB, T, InsertResult>,
  options: ReturningOptions = {},
): (db: Kysely<DB>, ...args: A) => Promise<Selectable<DB[T]>> {
  const returning = compiledQuery((db, ...args: A) => returningAll(build(db as Kysely<DB>, ...args)));
  return async (db, ...args) => {
    const k = db as unknown as AnyKysely;
    if (supportsReturning(k)) {
      const [row] = await returning(k, ...args);
      if (row === undefined) throw new NoResultError(returningAll(build(db, ...args)).toOperationNode());
      return row as Selectable<DB[T]>;
    }
    const insert = build(db, ...args);
    const result = await insert.executeTakeFirstOrThrow();
    const node = insert.toOperationNode();
    const column = options.key ?? 'id';
    const key = insertedKey(result.insertId) ?? givenValue(node, column);
    const table = node.into?.table.identifier.name ?? '';
    return (await k.selectFrom(table).selectAll().where(column, '=', key).executeTakeFirstOrThrow()) as Selectable<DB[T]>;
  };
}

/** Options of {@link insertIfAbsent}: the key whose duplicate is the conflict. */
export interface ConflictOptions<C extends string = string> {
  /**
   * The columns of the primary key or unique index a duplicate is found
   * by. PostgreSQL takes only that key's duplicates for the conflict;
   * MySQL takes a duplicate of any unique key of the table.
   */
  readonly conflict: readonly C[];
}

/** Options of {@link upsert}. */
export interface UpsertOptions<C extends string = string> extends ConflictOptions<C> {
  /** The columns an existing row takes from the values (default: every column of the values but the key's). */
  readonly update?: readonly C[];
}

/** One row, or several. */
type Rows<R> = R | readonly R[];

/**
 * Insert one row or several; a row whose key is taken updates the existing
 * row instead (its `update` columns, from the values given).
 *
 * @param values the rows' columns (every row with the same columns).
 * @throws the database's error for a failing insert (a duplicate of another unique index still fails: `isUniqueViolation(error)`).
 * @example
 *   await upsert(db, 'settings', { name: 'theme', value: 'dark' }, { conflict: ['name'] });
 */
export async function upsert<DB, T extends keyof DB & string>(
  db: Kysely<DB>,
  table: T,
  values: Rows<Insertable<DB[T]>>,
  options: UpsertOptions<keyof DB[T] & string>,
): Promise<void> {
  const update = options.update ?? columnsOf(values).filter((c) => !options.conflict.includes(c as never));
  await insertOnConflict(db as unknown as AnyKysely, table, values, options.conflict, update).execute();
}

/**
 * Insert one row or several, skipping each row whose key is taken (the
 * existing row stays as it is).
 *
 * @returns how many rows were inserted (0 when every key was taken).
 * @throws the database's error for a failing insert.
 * @example
 *   const added = (await insertIfAbsent(db, 'follows', { follower_id, followed_id }, { conflict: ['follower_id', 'followed_id'] })) > 0;
 */
export async function insertIfAbsent<DB, T extends keyof DB & string>(
  db: Kysely<DB>,
  table: T,
  values: Rows<Insertable<DB[T]>>,
  options: ConflictOptions<keyof DB[T] & string>,
): Promise<number> {
  const k = db as unknown as AnyKysely;
  if (sqlDialectOf(k) === 'mysql') return insertEachIfAbsent(k, table, values);
  const result = await insertOnConflict(k, table, values, options.conflict, []).executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n);
}

/**
 * MySQL: each row inserted by itself, a duplicate key skipped. Not `INSERT
 * IGNORE`, which also turns a too-long value into a cut one and a missing
 * foreign key into a skipped row (warnings, not errors); a failing
 * statement undoes only itself in InnoDB, so a transaction around the call
 * goes on. Any unique key counts as taken (MySQL names the index, not the
 * columns).
 */
async function insertEachIfAbsent(db: AnyKysely, table: string, values: unknown): Promise<number> {
  let inserted = 0;
  for (const row of Array.isArray(values) ? values : [values]) {
    try {
      await db
        .insertInto(table)
        .values(row as never)
        .execute();
      inserted++;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  return inserted;
}

/** The insert of `values` with what a duplicate of the key does: nothing, or the update of the `update` columns. */
function insertOnConflict(db: AnyKysely, table: string, values: unknown, conflict: readonly string[], update: readonly string[]) {
  const insert = db.insertInto(table).values(values as never);
  if (sqlDialectOf(db) === 'mysql') {
    // Nothing to update: the key set to itself (a no-op that keeps strict errors, unlike INSERT IGNORE).
    if (update.length === 0) return insert.onDuplicateKeyUpdate({ [conflict[0]!]: sql.ref(conflict[0]!) });
    return insert.onDuplicateKeyUpdate(Object.fromEntries(update.map((c) => [c, sql`values(${sql.ref(c)})`])));
  }
  return postgresOnConflict(insert, conflict, update);
}

/** The columns of the first row of `values`. */
function columnsOf(values: unknown): string[] {
  const first: unknown = Array.isArray(values) ? values[0] : values;
  return typeof first === 'object' && first !== null ? Object.keys(first) : [];
}

/** The value an insert gives `column` in its first row, or `undefined`. */
function givenValue(node: InsertQueryNode, column: string): unknown {
  const index = node.columns?.findIndex((c) => c.column.name === column) ?? -1;
  const rows = (node.values as { values?: readonly OperationNode[] } | undefined)?.values;
  const row = rows?.[0] as { kind: string; values: readonly unknown[] } | undefined;
  if (index < 0 || row === undefined) return undefined;
  const value = row.values[index];
  return row.kind === 'ValueListNode' ? (value as { value?: unknown }).value : value;
}

/** The key a driver reports for an inserted row, as a JavaScript number. */
function insertedKey(insertId: bigint | undefined): number | undefined {
  if (insertId === undefined) return undefined;
  const n = Number(insertId);
  if (!Number.isSafeInteger(n)) throw new UnsafeIntegerError(String(insertId));
  return n;
}
