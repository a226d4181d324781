/**
 * The SQL fragments PostgreSQL's audit writer builds its statements from
 * (docs/audit.md "Engines"): quoted identifiers, a model's column list, and
 * a row's (or an update's changed) values as a jsonb object, redacted columns
 * as `[redacted]`.
 */
import { REDACTED, type ResolvedModel } from '../../tracked-config.js';

/** A double-quoted identifier (names are checked plain identifiers). */
export function quoteId(name: string): string {
  return `"${name}"`;
}

const COLUMN_LISTS = new WeakMap<ResolvedModel, string>();

/** `"id", "owner_id", …` (unqualified): every column of the model, built once per model. */
export function columnListOf(model: ResolvedModel): string {
  let list = COLUMN_LISTS.get(model);
  if (list === undefined) {
    list = model.columns.map(quoteId).join(', ');
    COLUMN_LISTS.set(model, list);
  }
  return list;
}

/**
 * SQL of a jsonb object of `columns` of the row `alias`: `jsonb_build_object('title', "n"."title", …)`,
 * redacted columns as `'[redacted]'` (null stays null). `'{}'::jsonb` for no column.
 */
export function rowJsonSql(model: ResolvedModel, alias: string, columns: readonly string[]): string {
  if (columns.length === 0) return `'{}'::jsonb`;
  const pairs = columns.map((c) => `'${c}', ${valueSql(model, alias, c)}`);
  const parts: string[] = [];
  // jsonb_build_object takes at most 100 arguments.
  for (let i = 0; i < pairs.length; i += 50) parts.push(`jsonb_build_object(${pairs.slice(i, i + 50).join(', ')})`);
  return parts.join(' || ');
}

/**
 * SQL of the changed columns of an update, as a jsonb object taken from `side`
 * (`old` or `new` alias): one `CASE` per compared column.
 */
export function diffJsonSql(model: ResolvedModel, oldAlias: string, newAlias: string, side: string): string {
  if (model.compared.length === 0) return `'{}'::jsonb`;
  return model.compared
    .map(
      (c) =>
        `(CASE WHEN ${oldAlias}.${quoteId(c)} IS DISTINCT FROM ${newAlias}.${quoteId(c)} THEN jsonb_build_object('${c}', ${valueSql(model, side, c)}) ELSE '{}'::jsonb END)`,
    )
    .join(' || ');
}

function valueSql(model: ResolvedModel, alias: string, column: string): string {
  const ref = `${alias}.${quoteId(column)}`;
  return model.redacted.has(column) ? `(CASE WHEN ${ref} IS NULL THEN NULL ELSE '${REDACTED}' END)` : ref;
}
