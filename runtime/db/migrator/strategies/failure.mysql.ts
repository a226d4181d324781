/**
 * What a failing migration file says on MySQL and MariaDB (docs/database.md
 * "When a migration fails"): the server's message with its errno and
 * SQLSTATE, the failing statement's number and line, the statements that
 * stay applied (they committed as they ran), and where the next run resumes.
 */
import type { EngineName } from '../../engine.js';
import { MigrationFailedError } from '../errors.js';
import { engineTitle, migrationLabel, type MigrationFile } from '../migration-set.js';
import type { MigrationStatement } from './statements.mysql.js';

/** ER_PARSE_ERROR: the server says where in the statement it stopped reading (`… near 'x' at line 2`). */
const PARSE_ERROR = 1064;
const AT_LINE = / at line (\d+)$/;
/** At most this many applied statements are listed one by one (the last ones); earlier ones are counted. */
const LISTED = 10;
const PREVIEW_CHARS = 80;

/** Where a file failed. */
export interface StatementFailure {
  readonly engine: EngineName;
  readonly file: MigrationFile;
  readonly statements: readonly MigrationStatement[];
  /** 0-based index of the failing statement (so also the number of statements applied before it). */
  readonly failed: number;
  /** Statements an earlier run had applied (this run resumed after them). */
  readonly resumedAfter: number;
  readonly error: unknown;
}

/** The server's message with its errno and SQLSTATE (a mysql2 error), or the error's message. */
function reasonOf(error: unknown): { reason: string; serverLine: number | undefined } {
  const e = (error ?? {}) as { errno?: unknown; sqlState?: unknown; sqlMessage?: unknown; message?: unknown };
  const message = typeof e.sqlMessage === 'string' ? e.sqlMessage : typeof e.message === 'string' ? e.message : String(error);
  if (typeof e.errno !== 'number') return { reason: message, serverLine: undefined };
  const sqlState = typeof e.sqlState === 'string' ? `, SQLSTATE ${e.sqlState}` : '';
  const at = e.errno === PARSE_ERROR ? AT_LINE.exec(message) : null;
  return { reason: `${message} (errno ${e.errno}${sqlState})`, serverLine: at ? Number(at[1]) : undefined };
}

/** A statement's first line, blanks collapsed, cut at {@link PREVIEW_CHARS}. */
function preview(statement: MigrationStatement): string {
  const first = statement.text.split('\n', 1)[0]!.replace(/\s+/g, ' ').trim();
  const more = statement.text.includes('\n') ? ' …' : '';
  return first.length > PREVIEW_CHARS ? `${first.slice(0, PREVIEW_CHARS)}…` : `${first}${more}`;
}

/** `1–3`, or `2` for one. */
function range(from: number, to: number): string {
  return from === to ? `${from}` : `${from}–${to}`;
}

/** The lines listing the applied statements and the failing one. */
function listing(f: StatementFailure): string {
  const lines: string[] = [];
  const firstListed = Math.max(0, f.failed - LISTED);
  if (firstListed > 0) lines.push(`  ${range(1, firstListed)} applied (not listed)`);
  for (let i = firstListed; i < f.failed; i++) {
    const s = f.statements[i]!;
    lines.push(`  ${s.index} (line ${s.line}) applied${i < f.resumedAfter ? ' by an earlier run' : ''}: ${preview(s)}`);
  }
  const failing = f.statements[f.failed]!;
  lines.push(`  ${failing.index} (line ${failing.line}) FAILED: ${preview(failing)}`);
  return lines.join('\n');
}

/**
 * The error `migrate` throws for a statement that failed, and the text its
 * failure row keeps (`migrate --status` shows its first line).
 */
export function mysqlMigrationFailure(f: StatementFailure): { readonly error: MigrationFailedError; readonly record: string } {
  const { reason, serverLine } = reasonOf(f.error);
  const failing = f.statements[f.failed]!;
  const count = f.statements.length;
  const applied = f.failed;
  const title = engineTitle(f.engine);
  const notRun =
    failing.index < count ? `Statement${count - failing.index === 1 ? '' : 's'} ${range(failing.index + 1, count)} and the` : 'The';
  const stays =
    applied === 0
      ? `Nothing of it stays applied: its first statement failed.`
      : `${title} commits each statement as it runs (DDL cannot be rolled back), so statement${applied === 1 ? '' : 's'} ${range(1, applied)} stay${applied === 1 ? 's' : ''} applied, recorded as done:`;
  const resume =
    applied === 0
      ? `Fix the data it trips on, or the statement, and run "bindery migrate" again.`
      : `Fix the data statement ${failing.index} trips on, or the statement (or those after it; ${applied === 1 ? 'statement 1 ran and must stay as it is' : `statements ${range(1, applied)} ran and must stay as they are`}), and run "bindery migrate" again: it resumes at statement ${failing.index}.`;
  const aftermath = `${stays}\n${listing(f)}\n${notRun} migrations after this one did not run. ${resume} See docs/database.md "When a migration fails".`;
  const line = failing.line + (serverLine === undefined ? 0 : serverLine - 1);
  const error = new MigrationFailedError(migrationLabel(f.file), line, reason, {
    cause: f.error,
    aftermath,
    statement: { index: failing.index, count, applied },
  });
  const record =
    `statement ${failing.index} of ${count} (line ${line}): ${reason}` +
    (applied === 0 ? '' : `; statements ${range(1, applied)} stay applied, the next run resumes at statement ${failing.index}`);
  return { error, record };
}
