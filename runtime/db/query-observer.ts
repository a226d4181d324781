/**
 * Following the SQL statements of a database's pool (docs/observability.md
 * "SQL statements"): the `observability()` setup step traces each statement
 * sent on the app's pool — Kysely's queries, compiled queries, raw `sql`,
 * the migrator's — and the development dashboard lists them per request.
 *
 * Nothing is patched until an observer is installed: without one, the
 * engine's connections answer queries exactly as its driver made them. How
 * an engine follows its pool is its own (`engines/<engine>/`).
 */

/** Called once a statement finished: the rows it returned or changed (`null` when the driver reports none), or the error it failed with. */
export type QueryFinished = (rowCount: number | null, error: unknown) => void;

/** What is told about the statements of a pool. Its methods must not throw. */
export interface QueryObserver {
  /**
   * A statement is about to be sent.
   * @param text the SQL as sent: placeholders (`$1`, `?`) instead of values; the values are never shown.
   * @returns a function to call once it finished, or `undefined` not to follow this one.
   */
  queryStarted(text: string): QueryFinished | undefined;
}

/**
 * Tell `observer` about every statement sent on `database`'s pool from now on.
 * Cursors (streamed queries) are passed through unobserved.
 * @param database an open database (`Database`, or anything holding its engine).
 * @throws {Error} when the pool already has an observer (one per pool).
 * @example observeQueries(ctx.database, { queryStarted: (sql) => { const t = performance.now(); return () => times.push(performance.now() - t); } });
 */
export function observeQueries(database: { readonly engine: { observe(observer: QueryObserver): void } }, observer: QueryObserver): void {
  database.engine.observe(observer);
}
