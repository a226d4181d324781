/**
 * The key of a row MySQL's audit writer inserts (docs/audit.md "Engines"):
 * there is no `RETURNING`, so the new row is read back by its key — the
 * one given, a UUID made here for a generated UUID key, or the server's
 * `AUTO_INCREMENT` number (`LAST_INSERT_ID()` on the insert's connection).
 */
import { randomUUID } from 'node:crypto';
import { CompiledQuery } from 'kysely';
import { AuditModelError } from '../../errors.js';
import type { Runner } from '../../sql-runner.js';
import type { ResolvedModel } from '../../tracked-config.js';
import type { Values } from '../writer.js';
import type { TableInfo } from './table-info.js';

/** A zero or missing key of an `AUTO_INCREMENT` column: the server makes one. */
const noKey = (value: unknown): boolean => value === undefined || value === null || value === 0 || value === '0';

/**
 * The values of an insert with the key it will have: the key given, a UUID
 * made here for a generated UUID key, or `undefined` when the server makes
 * it (`AUTO_INCREMENT`, read back with `LAST_INSERT_ID()`).
 * @throws {AuditModelError} for a missing key the server makes in a way that cannot be read back.
 */
export function keyedValues(m: ResolvedModel, info: TableInfo, values: Values): { values: Values; key: unknown } {
  const given = values[m.pk];
  if (info.autoIncrementKey) return noKey(given) ? { values, key: undefined } : { values, key: given };
  if (given !== undefined && given !== null) return { values, key: given };
  if (m.config.generatedKey && info.uuidKey) {
    const key = randomUUID();
    return { values: { ...values, [m.pk]: key }, key };
  }
  throw new AuditModelError(
    `A row of ${m.table} was inserted without its key "${m.pk}", which is neither AUTO_INCREMENT nor a UUID column: on MySQL and MariaDB the audit log could not read the new row back to record it (docs/audit.md "Engines"). Give the key in the values.`,
  );
}

/** The key `LAST_INSERT_ID()` gives for the insert just run on `run`'s connection. */
export async function lastInsertId(run: Runner): Promise<number> {
  const { rows } = await run.run<{ id: number }>(CompiledQuery.raw('SELECT LAST_INSERT_ID() AS id'));
  return Number(rows[0]!.id);
}
