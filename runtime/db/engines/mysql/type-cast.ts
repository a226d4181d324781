/**
 * How values are read from MySQL and MariaDB (docs/database.md "MySQL and
 * MariaDB"), on top of the pool's settings (`timezone: 'Z'`,
 * `supportBigNumbers`): `BIGINT` as a JavaScript number when it is a safe
 * integer, `TINYINT(1)` (`BOOLEAN`) as `true`/`false`; `DATETIME` as a
 * `Date` in UTC, JSON parsed (MariaDB's JSON columns through its extended
 * metadata), `DECIMAL` as text — as mysql2 reads them.
 *
 * A `BIGINT` beyond ±2^53 fails its statement with `UnsafeIntegerError`
 * instead of losing precision. mysql2 ends the connection when a value
 * reader throws, so the reader leaves a marker in the row instead and the
 * statement's result is checked once it is complete
 * ({@link rejectUnsafeIntegers}): the connection — and its transaction —
 * stays usable, as on PostgreSQL.
 */
import type { TypeCastField, TypeCastNext } from 'mysql2';
import { UnsafeIntegerError } from '../../errors.js';

/** How many unsafe integers were read so far: a statement looks at its rows only when this moved while it ran. */
let unsafeRead = 0;

/** The number of unsafe integers read so far (read it before a statement, pass it to {@link rejectUnsafeIntegers} after). */
export function unsafeIntegersRead(): number {
  return unsafeRead;
}

/** mysql2's `typeCast` of bindery's pools. */
export function binderyTypeCast(field: TypeCastField, next: TypeCastNext): unknown {
  if (field.type === 'LONGLONG') {
    const value = next();
    // With supportBigNumbers (and not bigNumberStrings), mysql2 gives text exactly when the value is not a safe integer.
    if (typeof value !== 'string') return value;
    unsafeRead++;
    return new UnsafeIntegerError(value);
  }
  if (field.type === 'TINY' && field.length === 1) {
    const value = next();
    return value === null ? null : value !== 0 && value !== '0';
  }
  return next();
}

/**
 * Throws the first `UnsafeIntegerError` read into `result` when one was read
 * since `before` (by this statement or another running meanwhile); else does nothing.
 * @param result rows (objects), an OK packet, or one of those per statement.
 * @throws {UnsafeIntegerError} for a `BIGINT` beyond ±2^53 in the rows.
 */
export function rejectUnsafeIntegers(result: unknown, before: number): void {
  if (unsafeRead === before || !Array.isArray(result)) return;
  const found = findUnsafe(result, 0);
  if (found !== undefined) throw found;
}

/** Checks one streamed row (see {@link rejectUnsafeIntegers}). */
export function rejectUnsafeRow(row: unknown, before: number): void {
  if (unsafeRead === before || typeof row !== 'object' || row === null) return;
  const found = findUnsafe([row], 0);
  if (found !== undefined) throw found;
}

function findUnsafe(rows: readonly unknown[], depth: number): UnsafeIntegerError | undefined {
  for (const row of rows) {
    if (Array.isArray(row)) {
      // One result per statement (a text of several statements), or a row read as an array.
      if (depth === 0) {
        const found = findUnsafe(row, 1);
        if (found !== undefined) return found;
      } else {
        for (const value of row) if (value instanceof UnsafeIntegerError) return value;
      }
    } else if (typeof row === 'object' && row !== null) {
      for (const value of Object.values(row)) if (value instanceof UnsafeIntegerError) return value;
    }
  }
  return undefined;
}
