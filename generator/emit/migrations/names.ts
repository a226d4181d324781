/**
 * The names bindery gives what it derives from a table and a column —
 * foreign keys, enum CHECK constraints — the same on every engine: the
 * snapshot records some of them, the renames follow them.
 */
import { createHash } from 'node:crypto';

/** The longest name kept whole: PostgreSQL's limit (MySQL's is 64). */
const MAX_NAME = 63;

/** `<table>_<column>_fkey`, cut with a hash suffix past 63 characters. */
export function foreignKeyName(table: string, column: string): string {
  return constraintName(table, column, 'fkey');
}

/** The name of an enum column's CHECK constraint: `<table>_<column>_check` (cut with a hash past 63 characters). */
export function checkName(table: string, column: string): string {
  return constraintName(table, column, 'check');
}

/** `<table>_<column>_<suffix>`, cut with a hash suffix past 63 characters. */
export function constraintName(table: string, column: string, suffix: string): string {
  const full = `${table}_${column}_${suffix}`;
  return full.length <= MAX_NAME ? full : `${full.slice(0, 54)}_${createHash('sha256').update(full).digest('hex').slice(0, 8)}`;
}
