/**
 * How a bulk write's condition and assignments are stored in its
 * `audit_bulk` entry (docs/spec.md 6.1 rule 5; docs/audit.md "Bulk writes"):
 * hidden and redacted columns never appear in clear.
 */
import { isExpression, isOperationNodeSource, sql } from 'kysely';
import { jsonSafe } from './entries.js';
import type { Selection, Values } from './writers/writer.js';
import { REDACTED, type ResolvedModel } from './tracked-config.js';
import type { AnyKysely } from '../db/any-kysely.js';

/** Logged, non-timestamp columns that any of `rows` gives a value for, plus the key. */
export function loggedColumnsOf(model: ResolvedModel, rows: readonly Values[]): string[] {
  const given = new Set(rows.flatMap((r) => Object.keys(r)));
  return model.columns.filter((c) => c === model.pk || (given.has(c) && model.compared.includes(c)));
}

/**
 * The condition as stored: the SQL after `where` and its arguments — all
 * `[redacted]` when the condition names a hidden or redacted column (docs/spec.md
 * 6.1 rule 5). Values written inside raw SQL text stay as written.
 */
export function recordCondition(db: AnyKysely, model: ResolvedModel, selection: Selection): { sql: string; args: unknown[] } | null {
  const compiled = selection.apply(db.selectFrom(model.table).select(model.pk)).compile();
  // The condition is what follows the bare select, as the database's dialect writes it.
  const prefix = `${db.selectFrom(model.table).select(model.pk).compile().sql} where `;
  if (!compiled.sql.startsWith(prefix)) return null;
  const text = compiled.sql.slice(prefix.length);
  const hidden = model.sensitive.some((c) => new RegExp(`(?<![A-Za-z0-9_$])${c}(?![A-Za-z0-9_$])`, 'i').test(text));
  return { sql: text, args: compiled.parameters.map((p: unknown) => (hidden ? REDACTED : jsonSafe(p))) };
}

/** The assignments as stored: values as JSON, expressions as `{ sql, args }`, redacted columns as `[redacted]`. */
export function recordAssignments(db: AnyKysely, model: ResolvedModel, set: Values, columns: readonly string[]): Values {
  const out: Values = {};
  for (const column of columns) {
    const value = set[column];
    if (model.redacted.has(column)) {
      out[column] = value === null ? null : REDACTED;
    } else if (isExpression(value) || isOperationNodeSource(value) || typeof value === 'function') {
      const compiled = db
        .updateTable(model.table)
        .set({ [column]: value })
        .compile();
      const prefix = db
        .updateTable(model.table)
        .set({ [column]: sql`` })
        .compile().sql;
      out[column] = {
        sql: compiled.sql.startsWith(prefix) ? compiled.sql.slice(prefix.length) : compiled.sql,
        args: compiled.parameters.map(jsonSafe),
      };
    } else {
      out[column] = jsonSafe(value);
    }
  }
  return out;
}
