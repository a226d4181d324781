/**
 * One statement on one mysql2 connection, as every path of the MySQL engine
 * sends it (Kysely's, `engine.run`, a held connection): the values made
 * ready for the wire, the text protocol or a prepared statement, and the
 * result checked for integers beyond 2^53 (`type-cast.ts`).
 */
import type { ExecuteValues, PoolConnection, QueryError } from 'mysql2';
import type { StatementResult } from '../../engine.js';
import { rejectUnsafeIntegers, unsafeIntegersRead } from './type-cast.js';

/** What mysql2 gives for a statement: rows, or an OK packet for a write. */
export type MysqlResult = unknown[] | { affectedRows?: number; insertId?: number | string };

/**
 * A value as it goes to the server: a plain object or an array as its JSON
 * text (mysql2 would otherwise write an object as `key = value` pairs and an
 * array as a list), `undefined` as NULL. Dates (written in UTC), buffers,
 * numbers, strings, booleans and bigints are sent as they are.
 */
export function toParameter(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return JSON.stringify(value);
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null ? JSON.stringify(value) : value;
}

function parametersOf(parameters: readonly unknown[]): unknown[] {
  const out = new Array<unknown>(parameters.length);
  for (let i = 0; i < parameters.length; i++) out[i] = toParameter(parameters[i]);
  return out;
}

/**
 * Send `text` with `parameters` (`?` placeholders) on `connection`.
 * @param prepare a server-side prepared statement (mysql2's `execute`, kept per connection) instead of the text protocol.
 * @returns mysql2's result.
 * @throws mysql2's error for a failing statement; `UnsafeIntegerError` for a `BIGINT` beyond ±2^53 in the rows.
 */
export function send(connection: PoolConnection, text: string, parameters: readonly unknown[], prepare: boolean): Promise<MysqlResult> {
  const values = parametersOf(parameters);
  const before = unsafeIntegersRead();
  return new Promise((resolve, reject) => {
    const done = (error: QueryError | null, result: unknown) => {
      if (error) return reject(error);
      try {
        rejectUnsafeIntegers(result, before);
        resolve(result as MysqlResult);
      } catch (unsafe) {
        reject(unsafe);
      }
    };
    // The values are the engine's own (toParameter): mysql2's value types do not name `unknown`.
    if (prepare) connection.execute(text, values as ExecuteValues[], done);
    else connection.query(text, values, done);
  });
}

/** mysql2's result as the seam's: rows and the number of rows returned or changed. */
export function resultOf<R>(result: MysqlResult): StatementResult<R> {
  if (Array.isArray(result)) return { rows: result as R[], rowCount: result.length };
  return { rows: [], rowCount: result.affectedRows ?? 0 };
}
