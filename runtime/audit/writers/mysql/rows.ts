/**
 * Reading a tracked row on MySQL and MariaDB as an audit entry records it
 * (docs/audit.md "Engines"): the model's columns, plus the server's text of
 * each instant and date (a `Date` read by mysql2 has milliseconds, the
 * column microseconds); the values of a read row as PostgreSQL's strategy
 * writes them (json.ts), redacted as the model says; and the insert of a
 * single-row entry.
 */
import { CompiledQuery, sql, type AliasedRawBuilder } from 'kysely';
import type { AnyKysely } from '../../../db/any-kysely.js';
import type { Attribution } from '../../attribution.js';
import type { Runner } from '../../sql-runner.js';
import { REDACTED, type ResolvedModel } from '../../tracked-config.js';
import type { Values } from '../writer.js';
import { bytesJson, decimalJson, instantJson, jsonOrNull, jsonText, type EntryValue } from './json.js';
import type { TableInfo, ValueKind } from './table-info.js';

/** The alias of the server's text of column `column`. */
const textAlias = (column: string): string => `bindery_text:${column}`;

const FORMATS: Partial<Record<ValueKind, string>> = {
  instant: `'%Y-%m-%dT%H:%i:%s.%f'`,
  date: `'%Y-%m-%d'`,
};

/** The server's text of each instant and date column among `columns`. */
function textsOf(info: TableInfo, columns: readonly string[]): AliasedRawBuilder<string, string>[] {
  const texts: AliasedRawBuilder<string, string>[] = [];
  for (const column of columns) {
    const format = FORMATS[info.kinds.get(column) ?? 'plain'];
    if (format !== undefined) texts.push(sql<string>`date_format(${sql.ref(column)}, ${sql.raw(format)})`.as(textAlias(column)));
  }
  return texts;
}

/**
 * `select <columns>, <their texts> from <table>`: the columns of a row as
 * written back (`columns`, default every column of the model) and the
 * server's text of its instants and dates. Conditions and `for update` are the caller's.
 */
export function selectRow(db: AnyKysely, model: ResolvedModel, info: TableInfo, columns: readonly string[] = model.columns) {
  return db.selectFrom(model.table).select([...columns, ...textsOf(info, columns)]);
}

/** The row a write resolves to: the model's columns of a read row. */
export function rowOf(model: ResolvedModel, raw: Values): Values {
  const row: Values = {};
  for (const column of model.columns) row[column] = raw[column];
  return row;
}

/** The value of `column` of a read row as an entry records it (unredacted). */
export function storedValue(info: TableInfo, raw: Values, column: string): EntryValue {
  const value = raw[column];
  if (value === null || value === undefined) return null;
  switch (info.kinds.get(column) ?? 'plain') {
    case 'instant':
      return instantJson(String(raw[textAlias(column)]));
    case 'date':
      return String(raw[textAlias(column)]);
    case 'decimal':
      return decimalJson(String(value));
    case 'bytes':
      return Buffer.isBuffer(value) ? bytesJson(value) : value;
    default:
      return value instanceof Date ? value.toISOString() : value;
  }
}

/** The values of `columns` of a read row as an entry records them: redacted columns as `[redacted]` (a null stays null). */
export function entryValues(model: ResolvedModel, info: TableInfo, raw: Values, columns: Iterable<string>): Values {
  const values: Values = {};
  for (const column of columns) {
    const value = storedValue(info, raw, column);
    values[column] = model.redacted.has(column) && value !== null ? REDACTED : value;
  }
  return values;
}

/**
 * The old and new values of the compared columns that differ between two
 * reads of a row (as stored: by their JSON, as `IS DISTINCT FROM` compares
 * on PostgreSQL), redacted as the model says; `undefined` when none does.
 */
export function changesOf(model: ResolvedModel, info: TableInfo, before: Values, after: Values): { old: Values; new: Values } | undefined {
  const changed = model.compared.filter((c) => jsonText(storedValue(info, before, c)) !== jsonText(storedValue(info, after, c)));
  if (changed.length === 0) return undefined;
  return { old: entryValues(model, info, before, changed), new: entryValues(model, info, after, changed) };
}

const ENTRY =
  'INSERT INTO audit_log (actor_type, actor_id, action, subject_type, subject_id, changes, properties, via_kind, via_name, request_id, ip) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';

/** Insert the `audit_log` entry of a single-row write of the row of `key` (a prepared statement on the write's connection). */
export async function insertEntry(
  run: Runner,
  a: Attribution,
  action: string,
  model: ResolvedModel,
  key: unknown,
  changes: Values | null,
): Promise<void> {
  const parameters = [
    a.actorType,
    a.actorId,
    action,
    model.table,
    String(key),
    jsonOrNull(changes),
    jsonOrNull(a.details),
    a.viaKind,
    a.viaName,
    a.requestId,
    a.ip,
  ];
  await run.run(CompiledQuery.raw(ENTRY, parameters));
}
