/**
 * What the boot checks of a MySQL or MariaDB server before bindery uses it
 * (docs/database.md "MySQL and MariaDB"): which of the two it is and its
 * version (MySQL 8.0.16, MariaDB 10.6 at least), a database storing text as
 * `utf8mb4`, and sessions in strict mode — each refusal a coded error naming
 * the setting and the fix, never a silent loss of data later.
 */
import { codedErrorClass } from '../../../errors/coded-error.js';
import type { EngineName } from '../../engine.js';
import { SESSION_SQL_MODE } from './pool-options.js';

/** The server is older than bindery supports (`BINDERY_DATABASE_VERSION_UNSUPPORTED`). */
export const DatabaseVersionError = codedErrorClass('DatabaseVersionError', 'BINDERY_DATABASE_VERSION_UNSUPPORTED');
/** The database does not store text as utf8mb4 (`BINDERY_DATABASE_CHARSET_UNSUPPORTED`). */
export const DatabaseCharsetError = codedErrorClass('DatabaseCharsetError', 'BINDERY_DATABASE_CHARSET_UNSUPPORTED');
/** The sessions are not in strict mode (`BINDERY_DATABASE_SQL_MODE_UNSAFE`). */
export const DatabaseSqlModeError = codedErrorClass('DatabaseSqlModeError', 'BINDERY_DATABASE_SQL_MODE_UNSAFE');

/** A server's engine and version, read from `VERSION()`. */
export interface MysqlServer {
  readonly name: Extract<EngineName, 'mysql' | 'mariadb'>;
  /** `[major, minor, patch]`. */
  readonly version: readonly [number, number, number];
}

/** The oldest versions bindery runs on, and why. */
const MINIMUM: Readonly<Record<MysqlServer['name'], { version: readonly [number, number, number]; why: string }>> = {
  mysql: { version: [8, 0, 16], why: 'CHECK constraints are enforced from 8.0.16 on' },
  mariadb: { version: [10, 6, 0], why: 'FOR UPDATE SKIP LOCKED from 10.6 on' },
};

const ENGINE_LABEL: Readonly<Record<MysqlServer['name'], string>> = { mysql: 'MySQL', mariadb: 'MariaDB' };

/**
 * The engine and version of a `VERSION()` text: `8.0.36`, `8.4.2-log`,
 * `10.11.9-MariaDB-0+deb12u1`, `5.5.5-10.6.18-MariaDB` (the prefix some
 * MariaDB servers and proxies send for old clients).
 * @returns `undefined` when the text has no version.
 */
export function mysqlServerOf(text: string): MysqlServer | undefined {
  const mariadb = /mariadb/i.test(text);
  const m = /^(?:5\.5\.5-)?(\d+)\.(\d+)\.(\d+)/.exec(text);
  if (m === null) return undefined;
  return { name: mariadb ? 'mariadb' : 'mysql', version: [Number(m[1]), Number(m[2]), Number(m[3])] };
}

function older(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < 3; i++) if (a[i]! !== b[i]!) return a[i]! < b[i]!;
  return false;
}

/** What the boot reads of the server in one statement ({@link PROBE_STATEMENT}). */
export interface ProbedSettings {
  readonly version: string;
  readonly charset: string | null;
  readonly collation: string | null;
  readonly sqlMode: string;
  readonly database: string | null;
}

/** The statement reading {@link ProbedSettings} on a connection whose session is set up. */
export const PROBE_STATEMENT =
  'SELECT VERSION() AS version, @@character_set_database AS charset, @@collation_database AS collation, @@SESSION.sql_mode AS sqlMode, DATABASE() AS `database`';

/**
 * Check what {@link PROBE_STATEMENT} read.
 * @param url the URL without its password, for the messages.
 * @returns the server's engine and version.
 * @throws {DatabaseVersionError} for a server older than MySQL 8.0.16 or MariaDB 10.6, or one whose version cannot be read.
 * @throws {DatabaseCharsetError} when the database's character set is not utf8mb4.
 * @throws {DatabaseSqlModeError} when the session is not strict or escapes without backslashes.
 */
export function checkServer(settings: ProbedSettings, url: string): MysqlServer {
  const server = mysqlServerOf(settings.version);
  if (server === undefined)
    throw DatabaseVersionError.from({
      url,
      engine: 'MySQL',
      version: `"${settings.version}" (not a version)`,
      minimum: '8.0.16',
      why: MINIMUM.mysql.why,
    });
  const minimum = MINIMUM[server.name];
  if (older(server.version, minimum.version))
    throw DatabaseVersionError.from({
      url,
      engine: ENGINE_LABEL[server.name],
      version: settings.version,
      minimum: minimum.version.join('.'),
      why: minimum.why,
    });
  if (settings.charset !== 'utf8mb4')
    throw DatabaseCharsetError.from({
      url,
      database: settings.database ?? '',
      charset: settings.charset ?? '(none)',
      collation: settings.collation ?? '(none)',
    });
  const problem = sqlModeProblem(settings.sqlMode);
  if (problem !== undefined) throw DatabaseSqlModeError.from({ url, mode: settings.sqlMode, problem, wanted: SESSION_SQL_MODE });
  return server;
}

/** What is wrong with a session's `sql_mode` for bindery, or `undefined`. */
export function sqlModeProblem(mode: string): string | undefined {
  const modes = new Set(
    mode
      .toUpperCase()
      .split(',')
      .map((m) => m.trim()),
  );
  if (!modes.has('STRICT_ALL_TABLES') && !modes.has('STRICT_TRANS_TABLES'))
    return 'it is not strict (no STRICT_ALL_TABLES or STRICT_TRANS_TABLES), so a value that does not fit a column would be cut, rounded or zeroed with a mere warning';
  if (modes.has('NO_BACKSLASH_ESCAPES'))
    return 'NO_BACKSLASH_ESCAPES would make the server read the escaped values of statements differently';
  return undefined;
}
