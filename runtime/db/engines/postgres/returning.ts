/**
 * `RETURNING *`, for the portable writes of `runtime/db/portable-writes.ts`
 * on an engine that has it (PostgreSQL; MySQL has none): the one place the
 * neutral code reaches Kysely's `.returningAll()`.
 */

/** A Kysely write builder that can return its rows. */
interface Returnable<R> {
  returningAll(): R;
}

/** `query` returning every column of the rows it writes. */
export function returningAll<R>(query: Returnable<R>): R {
  return query.returningAll();
}
