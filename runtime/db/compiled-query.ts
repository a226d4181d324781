/**
 * Queries compiled once, executed many times: the hot queries of a request
 * (a token lookup, a user by ID, a page of rows) skip Kysely's per-call
 * building and compiling, and run as the same SQL text with new parameter
 * values — on the instance `connectDatabase` made, straight through its
 * engine's pool (docs/database.md "Compiled queries"). The engine under an
 * instance is known here too, for code that needs its SQL pieces
 * ({@link engineOf}; docs/database.md "Lists and cursors").
 */
import type { Compilable, CompiledQuery } from 'kysely';
import { createQueryId } from 'kysely';
import type { DatabaseEngine } from './engine.js';
import type { AnyKysely } from './any-kysely.js';

/** The engine under each Kysely instance made by `connectDatabase` (transactions are not in it). */
const engines = new WeakMap<AnyKysely, DatabaseEngine>();

/**
 * The engine under each Kysely adapter of those instances: a transaction,
 * and an instance made with `withPlugin`/`withSchema`, keep the adapter of
 * the instance they come from, so {@link engineOf} finds their engine too.
 */
const enginesByAdapter = new WeakMap<object, DatabaseEngine>();

/**
 * Let compiled queries on `db` go straight to `engine`'s pool (what Kysely's
 * dialect would do for them, without its per-query connection bookkeeping).
 * `connectDatabase` calls it; `db` must be a plain Kysely over that engine's dialect, without plugins.
 */
export function registerEngine(db: AnyKysely, engine: DatabaseEngine): void {
  engines.set(db, engine);
  enginesByAdapter.set(db.getExecutor().adapter, engine);
}

/**
 * The engine `db` runs on (docs/database.md "Engines"): for code written once
 * for every engine that needs the engine's SQL pieces (`engine.sql`), given
 * only a Kysely instance — the one `connectDatabase` made, a transaction on
 * it, or one derived from it with `withPlugin`/`withSchema`.
 * @throws {TypeError} when `db` was not made by `connectDatabase` (nor derived from such an instance).
 */
export function engineOf(db: AnyKysely): DatabaseEngine {
  const engine = findEngine(db);
  if (engine === undefined)
    throw new TypeError(
      'This Kysely instance has no bindery database engine: use the `db` of `connectDatabase` (ctx.services.db), or a transaction on it.',
    );
  return engine;
}

/**
 * The engine under `db` as {@link engineOf} finds it, or `undefined` for a
 * Kysely instance made elsewhere (for code that reports that case its own way).
 */
export function findEngine(db: AnyKysely): DatabaseEngine | undefined {
  return engines.get(db) ?? enginesByAdapter.get(db.getExecutor().adapter);
}

/** A stand-in for the `index`-th argument while the query is built. */
class Placeholder {
  constructor(readonly index: number) {}
}

/** A compiled query with, per parameter, the argument index it takes (or -1: a constant of the query). */
interface Plan {
  readonly compiled: CompiledQuery;
  readonly slots: readonly number[];
  /** The engine to run it on directly (see {@link registerEngine}). */
  readonly engine: DatabaseEngine | undefined;
}

/**
 * Compile a query once per Kysely instance and run it with new values.
 *
 * `build` receives stand-ins for its arguments and must use each one only as
 * a single value of the query (`where('id', '=', id)`, `values({ title })`,
 * `limit(n)`) — never branch on it, spread it, or pass it to `in` (lists
 * change the SQL). A Kysely instance with plugins runs `build` per call (a
 * plugin may rewrite each query), so the result is the same either way.
 *
 * @param build makes the query from the database and the argument stand-ins.
 * @returns `run(db, ...args)`: the result rows (an array; `[]` when none).
 * @throws {Error} on first use, when `build` did not use every argument as a value.
 * @example
 *   const noteById = compiledQuery((db, id: number) => db.selectFrom('notes').selectAll().where('id', '=', id));
 *   const [note] = await noteById(ctx.services.db, 42);
 */
export function compiledQuery<A extends unknown[], O>(
  build: (db: AnyKysely, ...args: A) => Compilable<O>,
): (db: AnyKysely, ...args: A) => Promise<O[]> {
  const plans = new WeakMap<AnyKysely, Plan | null>();
  // The instance of the last call and its plan: an app's requests use one root instance, so most calls skip the WeakMap.
  let lastDb: AnyKysely | undefined;
  let lastPlan: Plan | null = null;
  return async (db, ...args) => {
    let plan: Plan | null | undefined;
    if (db === lastDb) plan = lastPlan;
    else {
      plan = plans.get(db);
      if (plan === undefined) {
        plan = db.getExecutor().plugins.length > 0 ? null : compile(db, build, args.length);
        plans.set(db, plan);
      }
      lastDb = db;
      lastPlan = plan;
    }
    if (plan === null) return (await db.executeQuery(build(db, ...args))).rows;
    const { compiled, slots, engine } = plan;
    const constants = compiled.parameters;
    const parameters: unknown[] = new Array(slots.length);
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i]!;
      parameters[i] = slot === -1 ? constants[i] : args[slot];
    }
    // On a root instance, straight to its engine's pool (a lost connection rejects as a 503 there); in a transaction, through Kysely (its connection).
    if (engine !== undefined) return (await engine.run<O>(compiled.sql, parameters)).rows;
    const result = await db.executeQuery<O>({ query: compiled.query, queryId: createQueryId(), sql: compiled.sql, parameters });
    return result.rows;
  };
}

function compile<A extends unknown[]>(db: AnyKysely, build: (db: AnyKysely, ...args: A) => Compilable<unknown>, arity: number): Plan {
  const stand = Array.from({ length: arity }, (_, i) => new Placeholder(i)) as unknown as A;
  const compiled = build(db, ...stand).compile();
  const slots = compiled.parameters.map((p) => (p instanceof Placeholder ? p.index : -1));
  for (let i = 0; i < arity; i++) {
    if (!slots.includes(i))
      throw new Error(
        `compiledQuery: argument ${i + 1} is not used as a value of the query (${compiled.sql}); build the query per call instead.`,
      );
  }
  return { compiled, slots, engine: engines.get(db) };
}

/**
 * Run a query built for this call only the way compiled queries run: on the
 * Kysely instance `connectDatabase` made, compiled and sent straight to its
 * engine's pool (skipping Kysely's per-query connection bookkeeping); in a
 * transaction, on an instance with plugins or on one without a registered
 * engine, through Kysely as `execute()` would.
 *
 * @param query a built query (e.g. a `selectFrom(…)` builder), compiled here.
 * @returns the result rows (an array; `[]` when none).
 * @throws what the query throws; a lost database as `compiledQuery` reports it.
 */
export async function executeBuilt<O>(db: AnyKysely, query: Compilable<O>): Promise<O[]> {
  const engine = engines.get(db);
  if (engine === undefined || db.getExecutor().plugins.length > 0) return (await db.executeQuery(query)).rows;
  const compiled = query.compile();
  return (await engine.run<O>(compiled.sql, compiled.parameters)).rows;
}
