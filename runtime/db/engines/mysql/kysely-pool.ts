/**
 * The mysql2 pool as Kysely's `MysqlDialect` sees it: connections come from
 * the engine (their session settings applied, a wait for a free one bounded),
 * statements go through `send` (values made ready, big integers checked),
 * connection failures reject with a 503 `DatabaseUnavailableError` whose
 * cause is mysql2's error, query errors pass unchanged. A connection whose
 * connection failed is ended instead of going back to the pool.
 */
import type { MysqlPool, MysqlPoolConnection, MysqlStreamOptions } from 'kysely';
import type { PoolConnection } from 'mysql2';
import { asUnavailable, isConnectionFailure } from '../../unavailable.js';
import { send, toParameter } from './statements.js';
import { rejectUnsafeRow, unsafeIntegersRead } from './type-cast.js';

/** What the facade needs of the engine. */
export interface ConnectionSource {
  /** A connection of the pool, its session set up. @throws mysql2's error (or the pool's wait timeout). */
  acquire(): Promise<PoolConnection>;
  /** Hand a connection back (`discard`: end it). */
  giveBack(connection: PoolConnection, discard: boolean): void;
  /** End the pool (once). */
  end(): Promise<void>;
}

/** Kysely's pool over `source`. */
export function kyselyPool(source: ConnectionSource): MysqlPool {
  const facades = new WeakMap<PoolConnection, MysqlPoolConnection>();
  return {
    getConnection(callback) {
      source.acquire().then(
        (connection) => {
          let facade = facades.get(connection);
          if (facade === undefined) {
            facade = facadeOf(connection, source);
            facades.set(connection, facade);
          }
          callback(null, facade);
        },
        (error: unknown) => callback(asUnavailable(error), undefined as unknown as MysqlPoolConnection),
      );
    },
    end(callback) {
      source.end().then(
        () => callback(null),
        (error: unknown) => callback(error),
      );
    },
  };
}

function facadeOf(connection: PoolConnection, source: ConnectionSource): MysqlPoolConnection {
  // Whether the connection failed since it was handed out: it is then ended on release.
  let broken = false;
  const query = ((text: string, parameters: unknown[], callback?: (error: unknown, result: unknown) => void) => {
    if (callback === undefined)
      return { stream: <T>(options: MysqlStreamOptions) => checkedStream<T>(connection, text, parameters, options) };
    send(connection, text, parameters, false).then(
      (result) => callback(null, result),
      (error: unknown) => {
        if (isConnectionFailure(error)) broken = true;
        callback(asUnavailable(error), undefined);
      },
    );
    return undefined;
  }) as MysqlPoolConnection['query'];
  return {
    query,
    release() {
      source.giveBack(connection, broken);
      broken = false;
    },
  };
}

/** A streamed query's rows (Kysely's `.stream()`), each checked for integers beyond 2^53. */
async function* checkedStream<T>(
  connection: PoolConnection,
  text: string,
  parameters: unknown[],
  options: MysqlStreamOptions,
): AsyncGenerator<T> {
  const before = unsafeIntegersRead();
  const stream = connection.query(text, parameters.map(toParameter)).stream(options);
  try {
    for await (const row of stream) {
      rejectUnsafeRow(row, before);
      yield row as T;
    }
  } catch (error) {
    throw asUnavailable(error);
  }
}
