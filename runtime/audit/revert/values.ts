/**
 * Values of entries, compared and written back (docs/audit.md "Revert"):
 * an entry keeps each column as its JSON (docs/audit.md "Tables"); a revert
 * compares them as JSON and writes them back as parameters the engine reads
 * into the column — on MySQL and MariaDB an instant's `…+00:00` text as a
 * `DATETIME`, bytes' `\x…` as bytes, and JSON documents as their text.
 * (framework-internal: not exported by an entry).
 */
import type { AnyKysely } from '../../db/any-kysely.js';
import { utcText } from '../../db/engines/mysql/sql.js';
import type { Runner } from '../sql-runner.js';
import type { ResolvedModel } from '../tracked-config.js';
import { tableInfo, type ValueKind } from '../writers/mysql/table-info.js';

/** `value` as JSON text with object members sorted: equal for equal JSON values. */
function canonical(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Whether two recorded values are the same JSON (null and absent alike). */
export function sameJson(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

/** A Runner over a Kysely instance or transaction. */
export function kyselyRunner(db: AnyKysely): Runner {
  return {
    async run<R>(query: Parameters<AnyKysely['executeQuery']>[0]) {
      const result = await db.executeQuery<R>(query);
      return {
        rows: [...result.rows],
        rowCount: result.numAffectedRows === undefined ? result.rows.length : Number(result.numAffectedRows),
      };
    },
  };
}

/** Turns recorded values into parameters for one table. */
export type ValueWriter = (values: Record<string, unknown>) => Record<string, unknown>;

/**
 * How recorded values of `model`'s columns are written back on the engine of `engine`.
 * @param db the transaction the revert runs in (MySQL reads the column types through it, once per table).
 */
export async function valueWriter(engine: string, db: AnyKysely, model: ResolvedModel): Promise<ValueWriter> {
  if (engine === 'postgres') {
    // Arrays go as PostgreSQL arrays (pg's parameters); JSON documents as objects, which pg sends as JSON.
    return (values) => ({ ...values });
  }
  const kinds = (await tableInfo(kyselyRunner(db), model)).kinds;
  return (values) => Object.fromEntries(Object.entries(values).map(([column, value]) => [column, mysqlValue(kinds.get(column), value)]));
}

function mysqlValue(kind: ValueKind | undefined, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (kind === 'instant' && typeof value === 'string') return utcText(value);
  if (kind === 'bytes' && typeof value === 'string' && value.startsWith('\\x')) return Buffer.from(value.slice(2), 'hex');
  if (typeof value === 'object') return JSON.stringify(value);
  return value;
}
