/**
 * Following the statements of PostgreSQL's pool (the engine's half of
 * `runtime/db/query-observer.ts`): each pooled client is wrapped the first
 * time the pool hands it out (pg-pool's `acquire` event), so clients
 * connected before the observer are covered too.
 */
import type pg from 'pg';
import type { QueryFinished, QueryObserver } from '../../query-observer.js';

const observed = new WeakMap<pg.Pool, QueryObserver>();

/**
 * Report every statement sent on `pool` to `observer` from now on.
 * @throws {Error} when the pool already has an observer (one per pool).
 */
export function observePostgresPool(pool: pg.Pool, observer: QueryObserver): void {
  if (observed.has(pool)) throw new Error('observeQueries: this pool already has an observer.');
  observed.set(pool, observer);
  const wrapped = new WeakSet<pg.PoolClient>();
  pool.on('acquire', (client) => {
    if (wrapped.has(client)) return;
    wrapped.add(client);
    wrapClient(client, observer);
  });
}

type Callback = (error: Error | null, result?: pg.QueryResult) => void;

/** Replace `client.query` by one that reports each statement; every call form of pg is kept. */
function wrapClient(client: pg.PoolClient, observer: QueryObserver): void {
  // biome-ignore lint/suspicious/noExplicitAny: pg's `query` is a set of overloads (text, config object, submittable; promise or callback); the wrapper forwards whatever it is given, unchanged.
  const original = client.query as (...args: any[]) => any;
  // biome-ignore lint/suspicious/noExplicitAny: see above.
  const query = function observedQuery(this: pg.PoolClient, ...args: any[]): any {
    const first = args[0] as string | { text?: unknown; submit?: unknown } | undefined;
    const text = typeof first === 'string' ? first : first !== null && typeof first === 'object' ? first.text : undefined;
    if (typeof text !== 'string' || (typeof first === 'object' && typeof first.submit === 'function')) return original.apply(this, args);
    let finished: QueryFinished | undefined;
    try {
      finished = observer.queryStarted(text);
    } catch {
      finished = undefined;
    }
    if (finished === undefined) return original.apply(this, args);
    const done = finished;
    const last = args.length - 1;
    if (typeof args[last] === 'function') {
      const callback = args[last] as Callback;
      args[last] = (error: Error | null, result?: pg.QueryResult) => {
        report(done, error === null || error === undefined ? rowsOf(result) : null, error ?? undefined);
        callback(error, result);
      };
      return original.apply(this, args);
    }
    return (original.apply(this, args) as Promise<pg.QueryResult>).then(
      (result) => {
        report(done, rowsOf(result), undefined);
        return result;
      },
      (error: unknown) => {
        report(done, null, error);
        throw error;
      },
    );
  };
  client.query = query as typeof client.query;
}

function report(done: QueryFinished, rows: number | null, error: unknown): void {
  try {
    done(rows, error);
  } catch {
    // An observer's failure never fails the query.
  }
}

/** Rows returned (SELECT) or changed (INSERT, UPDATE, DELETE); several statements in one text add up. */
function rowsOf(result: pg.QueryResult | pg.QueryResult[] | undefined): number | null {
  if (result === undefined) return null;
  if (Array.isArray(result)) return result.reduce((n, r) => n + (r.rowCount ?? 0), 0);
  return result.rowCount ?? null;
}
