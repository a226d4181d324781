/**
 * Following the statements of a mysql2 pool (the engine's half of
 * `runtime/db/query-observer.ts`): each pooled connection's `query` and
 * `execute` are wrapped the first time the pool hands it out (the pool's
 * `acquire` event), so connections opened before the observer are covered
 * too. The session settings a new connection runs first are not reported.
 * Statements without a callback (a stream) pass unobserved.
 */
import type { Pool, PoolConnection } from 'mysql2';
import type { QueryFinished, QueryObserver } from '../../query-observer.js';

const observed = new WeakMap<Pool, QueryObserver>();

/**
 * Report every statement sent on `pool` to `observer` from now on.
 * @throws {Error} when the pool already has an observer (one per pool).
 */
export function observeMysqlPool(pool: Pool, observer: QueryObserver): void {
  if (observed.has(pool)) throw new Error('observeQueries: this pool already has an observer.');
  observed.set(pool, observer);
  const wrapped = new WeakSet<PoolConnection>();
  pool.on('acquire', (connection) => {
    if (wrapped.has(connection)) return;
    wrapped.add(connection);
    wrap(connection, 'query', observer);
    wrap(connection, 'execute', observer);
  });
}

type Callback = (error: Error | null, result?: unknown, fields?: unknown) => void;

/** Replace `connection[method]` by one that reports each statement given with a callback; every call form of mysql2 is kept. */
function wrap(connection: PoolConnection, method: 'query' | 'execute', observer: QueryObserver): void {
  const original = connection[method] as (...args: unknown[]) => unknown;
  const observedCall = function (this: PoolConnection, ...args: unknown[]): unknown {
    const last = args.length - 1;
    const first = args[0] as string | { sql?: unknown } | undefined;
    const text = typeof first === 'string' ? first : typeof first === 'object' && first !== null ? first.sql : undefined;
    if (typeof text !== 'string' || typeof args[last] !== 'function') return original.apply(this, args);
    let finished: QueryFinished | undefined;
    try {
      finished = observer.queryStarted(text);
    } catch {
      finished = undefined;
    }
    if (finished === undefined) return original.apply(this, args);
    const done = finished;
    const callback = args[last] as Callback;
    args[last] = (error: Error | null, result?: unknown, fields?: unknown) => {
      report(done, error ? null : rowsOf(result), error ?? undefined);
      callback(error, result, fields);
    };
    return original.apply(this, args);
  };
  (connection as unknown as Record<string, unknown>)[method] = observedCall;
}

function report(done: QueryFinished, rows: number | null, error: unknown): void {
  try {
    done(rows, error);
  } catch {
    // An observer's failure never fails the statement.
  }
}

/** Rows returned (SELECT) or changed (INSERT, UPDATE, DELETE). */
function rowsOf(result: unknown): number | null {
  if (Array.isArray(result)) return result.length;
  if (typeof result === 'object' && result !== null && typeof (result as { affectedRows?: unknown }).affectedRows === 'number')
    return (result as { affectedRows: number }).affectedRows;
  return null;
}
