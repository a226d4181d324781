/**
 * The PL/pgSQL blocks of PostgreSQL migrations: the data checks that stop a
 * migration (its transaction rolls back) with a message naming the rows,
 * instead of PostgreSQL's bare error, and the move of a renamed table's
 * audit history.
 */
import { postgresType } from '../../../../../runtime/db/engines/postgres/column-types.js';
import type { ColumnSnapshot } from '../../snapshot-types.js';
import { sqlString } from './defaults.js';
import { enumCondition, ident } from './ddl.js';

/**
 * A check run before an enum's CHECK constraint is added to a table with
 * rows: it counts the rows holding a value outside the list and stops the
 * migration (its transaction rolls back) naming the table, column, count and
 * the allowed values, instead of PostgreSQL's bare "check constraint is
 * violated by some row".
 */
export function enumGuard(table: string, column: string, c: ColumnSnapshot): string {
  const condition = enumCondition(column, c);
  // In RAISE's format string `%` is a placeholder: doubled to stay text.
  const allowed = (c.values ?? []).join(', ').replace(/'/g, "''").replace(/%/g, '%%');
  return [
    'DO $$',
    'DECLARE outside bigint;',
    'BEGIN',
    `  SELECT count(*) INTO outside FROM ${ident(table)} WHERE NOT (${condition});`,
    '  IF outside > 0 THEN',
    `    RAISE EXCEPTION 'cannot limit ${table}.${column} to (${allowed}): % row(s) hold another value', outside`,
    `      USING HINT = 'nothing was changed; update those rows (SELECT * FROM ${table} WHERE NOT (${condition.replace(/'/g, "''")})), then run bindery migrate again';`,
    '  END IF;',
    'END $$;',
  ].join('\n');
}

/**
 * A check that runs before a narrowing type change: it counts the rows whose
 * value would not come back unchanged from the new type (a varchar cut short,
 * a fraction rounded) and stops the migration — its transaction rolls back —
 * naming the table, column and count, instead of letting the cast cut them.
 * A value the new type rejects outright (out of range, not a number) stops it
 * too, naming the table, column and PostgreSQL's reason.
 */
export function narrowingGuard(table: string, column: string, fromColumn: ColumnSnapshot, toColumn: ColumnSnapshot): string {
  const c = ident(column);
  const from = postgresType(fromColumn.type);
  const to = postgresType(toColumn.type);
  return [
    'DO $$',
    'DECLARE lost bigint;',
    'BEGIN',
    '  BEGIN',
    `    SELECT count(*) INTO lost FROM ${ident(table)} WHERE ${c} IS NOT NULL AND (${c}::${to})::${from} IS DISTINCT FROM ${c};`,
    '  EXCEPTION WHEN others THEN',
    `    RAISE EXCEPTION 'cannot change ${table}.${column} from ${from} to ${to}: a value cannot be converted (%)', SQLERRM`,
    `      USING HINT = 'nothing was changed; fix the rows holding such values, then run bindery migrate again';`,
    '  END;',
    '  IF lost > 0 THEN',
    `    RAISE EXCEPTION 'cannot change ${table}.${column} from ${from} to ${to}: % row(s) hold a value that does not fit', lost`,
    `      USING HINT = 'nothing was changed; fix those rows (e.g. SELECT * FROM ${table} WHERE ${column}::${to}::${from} IS DISTINCT FROM ${column}), then run bindery migrate again';`,
    '  END IF;',
    'END $$;',
  ].join('\n');
}

/**
 * A statement moving the audit history of table `from` to its new name `to`
 * (`subject_type` of each of `auditTables`), so that the history of a row
 * survives the rename; it does nothing where the audit tables do not exist.
 */
export function auditSubjects(from: string, to: string, auditTables: readonly string[]): string {
  return [
    'DO $$',
    'BEGIN',
    ...auditTables.flatMap((t) => [
      `  IF to_regclass('${t}') IS NOT NULL THEN`,
      `    UPDATE ${t} SET subject_type = ${sqlString(to)} WHERE subject_type = ${sqlString(from)};`,
      '  END IF;',
    ]),
    'END $$;',
  ].join('\n');
}
