/**
 * Splitting a migration file into statements for MySQL and MariaDB
 * (docs/database.md "Migrations per engine"), which take one statement per
 * call and cannot roll a file back, so the migrator runs and records a file
 * statement by statement.
 *
 * The rule (the one bindery's generator writes MySQL DDL by): **a statement
 * ends with `;` at the end of a line** — the `;` followed on its line by
 * nothing but blanks or a comment (`-- …`, `# …`, a `/* … *\/` closed on that
 * line). A `;` inside a quoted string (`'…'`, `"…"`, `` `…` ``, with `\` and
 * doubled-quote escapes) or inside a comment never ends a statement, even at
 * the end of a line (a string spanning lines); a `;` with more SQL after it on
 * its line does not either, so a compound statement (a trigger's
 * `BEGIN … END`) written on one line stays one statement. Blank lines and
 * comments between statements belong to none; MySQL's executable comments
 * (`/*! … *\/`, MariaDB's `/*M! … *\/`) are code. Text after the last `;`
 * that is more than blanks and comments is a last statement.
 */
import { createHash } from 'node:crypto';

/** One statement of a migration file. */
export interface MigrationStatement {
  /** 1-based number of the statement in the file. */
  readonly index: number;
  /** 1-based line of its first character in the file. */
  readonly line: number;
  /** Its text as sent: from its first character to before its ending `;`. */
  readonly text: string;
}

const NEWLINE = 10;

/** Where scanning `sql` from `i` in normal text, at a comment, reaches: the index after the comment, or -1 when none starts at `i`. */
function commentEnd(sql: string, i: number): number {
  const c = sql[i];
  if (c === '#' || (c === '-' && sql[i + 1] === '-' && (i + 2 >= sql.length || /\s/.test(sql[i + 2]!)))) {
    const end = sql.indexOf('\n', i);
    return end === -1 ? sql.length : end;
  }
  if (c === '/' && sql[i + 1] === '*' && sql[i + 2] !== '!' && !(sql[i + 2] === 'M' && sql[i + 3] === '!')) {
    const end = sql.indexOf('*/', i + 2);
    return end === -1 ? sql.length : end + 2;
  }
  return -1;
}

/** The index after the quoted text opening at `i` (its closing quote included), or the text's end when it never closes. */
function quoteEnd(sql: string, i: number): number {
  const quote = sql[i];
  let j = i + 1;
  while (j < sql.length) {
    const c = sql[j];
    if (c === '\\' && quote !== '`') j += 2;
    else if (c === quote) {
      if (sql[j + 1] === quote) j += 2;
      else return j + 1;
    } else j++;
  }
  return sql.length;
}

/** Whether nothing but blanks and comments follows `i` up to the end of its line. */
function restOfLineIsBlank(sql: string, i: number): boolean {
  let j = i;
  while (j < sql.length) {
    const c = sql.charCodeAt(j);
    if (c === NEWLINE) return true;
    if (c === 32 || c === 9 || c === 13) {
      j++;
      continue;
    }
    const end = commentEnd(sql, j);
    if (end === -1) return false;
    if (sql[j] !== '/') return true; // a line comment runs to the end of the line
    if (sql.slice(j, end).includes('\n')) return false; // a block comment going on to the next lines: what follows it decides, not this `;`
    j = end;
  }
  return true;
}

function countLines(sql: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if (sql.charCodeAt(i) === NEWLINE) n++;
  return n;
}

/**
 * The statements of a migration file, in order (the rule is the module's).
 * @param sql the file's text, with LF line endings (a BOM dropped).
 * @returns its statements; none for a file of blanks and comments only. Never throws: an unclosed string or comment runs to the end of the file (the server then says what is wrong).
 * @example splitMysqlStatements("CREATE TABLE a (id INT);\n-- b\nINSERT INTO a VALUES (1);\n").map((s) => s.line) // [1, 3]
 */
export function splitMysqlStatements(sql: string): MigrationStatement[] {
  const statements: MigrationStatement[] = [];
  let line = 1;
  let start = -1;
  let startLine = 0;
  let codeEnd = 0;
  let i = 0;
  const push = (end: number) => {
    statements.push({ index: statements.length + 1, line: startLine, text: sql.slice(start, end).trimEnd() });
    start = -1;
  };
  while (i < sql.length) {
    const c = sql[i]!;
    if (c === '\n') {
      line++;
      i++;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      i++;
      continue;
    }
    const comment = commentEnd(sql, i);
    if (comment !== -1) {
      line += countLines(sql, i, comment);
      i = comment;
      continue;
    }
    if (c === ';' && restOfLineIsBlank(sql, i + 1)) {
      if (start !== -1) push(i);
      i++;
      continue;
    }
    if (start === -1) {
      start = i;
      startLine = line;
    }
    const next = c === "'" || c === '"' || c === '`' ? quoteEnd(sql, i) : i + 1;
    line += countLines(sql, i, next);
    i = next;
    codeEnd = i;
  }
  if (start !== -1) push(codeEnd);
  return statements;
}

/** The checksum (SHA-256, hex) of a file's first statements: what a partly applied file's record keeps of the statements that ran. */
export function statementsChecksum(statements: readonly MigrationStatement[]): string {
  return createHash('sha256')
    .update(JSON.stringify(statements.map((s) => s.text)))
    .digest('hex');
}
