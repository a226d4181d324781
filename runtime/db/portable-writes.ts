/**
 * Writes that return the row, on every engine (docs/database.md "Insert and
 * return the row"): `INSERT … RETURNING` where the engine has it, else the
 * write followed by a read of the row by its key. Application code uses
 * these instead of Kysely's `.returningAll()`, which MySQL lacks.
 */
import { sql, type Insertable, type Kysely, type Selectable, type UpdateObject } from 'kysely';
import type { AnyKysely } from './any-kysely.js';
import { UnsafeIntegerError } from './errors.js';

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
  // engine-sql: the portable write's RETURNING branch, taken only where the dialect supports it
  if (supportsReturning(k)) return (await insert.returningAll().executeTakeFirstOrThrow()) as Selectable<DB[T]>;
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
  // engine-sql: the portable write's RETURNING branch, taken only where the dialect supports it
  if (supportsReturning(k)) return (await update.returningAll().executeTakeFirst()) as Selectable<DB[T]> | undefined;
  await update.execute();
  return (await k.selectFrom(table).selectAll().where(column, '=', key).executeTakeFirst()) as Selectable<DB[T]> | undefined;
}

/** The key a driver reports for an inserted row, as a JavaScript number. */
function insertedKey(insertId: bigint | undefined): number | undefined {
  if (insertId === undefined) return undefined;
  const n = Number(insertId);
  if (!Number.isSafeInteger(n)) throw new UnsafeIntegerError(String(insertId));
  return n;
}
