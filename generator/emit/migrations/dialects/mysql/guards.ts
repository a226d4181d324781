/**
 * The data checks of MySQL and MariaDB migrations, and the move of a renamed
 * table's audit history. MySQL runs no anonymous blocks, so each is a
 * procedure written on one line (its inner `;` are not at a line's end: the
 * migrator keeps it one statement), called, then dropped:
 *
 * ```sql
 * DROP PROCEDURE IF EXISTS `bindery_migration_check`;
 * CREATE PROCEDURE `bindery_migration_check`() BEGIN …; IF … THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = …; END IF; END;
 * CALL `bindery_migration_check`();
 * DROP PROCEDURE `bindery_migration_check`;
 * ```
 *
 * A failing check stops the migration at its `CALL` (DDL is not
 * transactional: the statements before it stay applied, and the next run
 * resumes at the `CALL`), with a message naming the table, column and count.
 */
import type { ColumnSnapshot } from '../../snapshot-types.js';
import { sqlString } from './defaults.js';
import { columnSql, enumCondition, ident } from './ddl.js';

/** The name of the procedures of the checks. */
export const CHECK_PROCEDURE = 'bindery_migration_check';

/** MySQL's limit on a `SIGNAL`'s `MESSAGE_TEXT`, in characters. */
const MESSAGE_LIMIT = 128;

/** The statements of a procedure with `body` (on one line), its call and its drop. */
function procedure(body: string): string {
  const name = ident(CHECK_PROCEDURE);
  return [
    `DROP PROCEDURE IF EXISTS ${name};`,
    `CREATE PROCEDURE ${name}() BEGIN ${body} END;`,
    `CALL ${name}();`,
    `DROP PROCEDURE ${name};`,
  ].join('\n');
}

/** A check counting the rows of `table` where `condition` holds, failing with `message` (an SQL text expression given the count `n`) when there are any. */
function countCheck(table: string, condition: string, message: string): string {
  return procedure(
    [
      'DECLARE n BIGINT;',
      `SELECT COUNT(*) INTO n FROM ${ident(table)} WHERE ${condition};`,
      `IF n > 0 THEN SET @bindery_message = LEFT(${message}, ${MESSAGE_LIMIT}); SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = @bindery_message; END IF;`,
    ].join(' '),
  );
}

/**
 * A check run before an enum's CHECK constraint is added to a table with
 * rows: it counts the rows holding a value outside the list and stops the
 * migration naming the table, column, count and the allowed values.
 */
export function enumGuard(table: string, column: string, c: ColumnSnapshot): string {
  const allowed = (c.values ?? []).join(', ');
  return countCheck(
    table,
    `NOT (${enumCondition(column, c)})`,
    `CONCAT(${sqlString(`cannot limit ${table}.${column}: `)}, n, ${sqlString(` row(s) hold a value not in (${allowed}); fix them, then migrate again`)})`,
  );
}

/**
 * The condition of the rows whose value would not come back unchanged from
 * the new type, for the changes it can say: a text cut short, an integer
 * out of range, a fraction rounded, a text that is no number.
 * @returns `undefined` when there is none to say (MySQL's strict mode refuses the change itself).
 */
function lossCondition(column: string, from: ColumnSnapshot, to: ColumnSnapshot): string | undefined {
  const c = ident(column);
  const target = columnSql(to);
  const source = columnSql(from);
  const length = /^VARCHAR\((\d+)\)$/.exec(target);
  if (length) return `CHAR_LENGTH(${c}) > ${length[1]}`;
  const numeric = ['INT', 'BIGINT', 'DOUBLE'];
  const text = source.startsWith('VARCHAR') || source === 'LONGTEXT';
  const range: Record<string, string> = { INT: '-2147483648 AND 2147483647', BIGINT: '-9223372036854775808 AND 9223372036854775807' };
  if (target === 'INT' || target === 'BIGINT') {
    if (source === 'DOUBLE') return `(${c} <> FLOOR(${c}) OR ${c} NOT BETWEEN ${range[target]})`;
    if (source === 'BIGINT') return `${c} NOT BETWEEN ${range[target]}`;
    if (text) return `NOT (${c} REGEXP '^-?[0-9]+$')`;
  }
  if (target === 'DOUBLE' && text) return `NOT (${c} REGEXP '^-?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?$')`;
  if (target === 'BOOLEAN' && numeric.includes(source)) return `${c} NOT IN (0, 1)`;
  if (target === 'CHAR(36)' && text)
    return `NOT (${c} REGEXP '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$')`;
  if (target === 'JSON' && text) return `NOT JSON_VALID(${c})`;
  return undefined;
}

/**
 * A check that runs before a narrowing type change: it counts the rows whose
 * value would not survive the change and stops the migration naming the
 * table, column and count. Where no such condition can be said, a comment:
 * the session's strict mode makes the `MODIFY` itself fail on a value that
 * does not convert, and it changes nothing then (an `ALTER TABLE` is atomic).
 */
export function narrowingGuard(table: string, column: string, from: ColumnSnapshot, to: ColumnSnapshot): string {
  const condition = lossCondition(column, from, to);
  const change = `${table}.${column} from ${columnSql(from)} to ${columnSql(to)}`;
  if (condition === undefined)
    return `-- Changing ${change}: a value that does not convert makes the ALTER below fail (strict mode), changing nothing.`;
  return countCheck(
    table,
    `${ident(column)} IS NOT NULL AND ${condition}`,
    `CONCAT(${sqlString(`cannot change ${change}: `)}, n, ${sqlString(' row(s) hold a value that does not fit; fix them, then migrate again')})`,
  );
}

/**
 * Statements moving the audit history of table `from` to its new name `to`
 * (`subject_type` of each of `auditTables`, where it exists), so that the
 * history of a row survives the rename.
 */
export function auditSubjects(from: string, to: string, auditTables: readonly string[]): string {
  return procedure(
    auditTables
      .map(
        (t) =>
          `IF EXISTS (SELECT 1 FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ${sqlString(t)}) THEN UPDATE ${ident(t)} SET subject_type = ${sqlString(to)} WHERE subject_type = ${sqlString(from)}; END IF;`,
      )
      .join(' '),
  );
}
