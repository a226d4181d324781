/**
 * A `mysql://` or `mariadb://` URL as mysql2's pool options, with the
 * settings that keep data exact (docs/database.md "MySQL and MariaDB"):
 * UTC, `utf8mb4` with a byte-exact collation, big integers checked, one
 * statement per call, and the session settings each new connection runs first.
 */
import type { PoolOptions } from 'mysql2';
import { DatabaseUnreachableError } from '../../errors.js';
import { redactUrl } from '../../redact-url.js';
import { binderyTypeCast } from './type-cast.js';

/** Options of `openMysql`. */
export interface MysqlOptions {
  /** `mysql://user:password@host:3306/database` or `mariadb://…`; `?ssl=true` for TLS (the server's certificate verified), `?socket=/path` for a Unix socket. */
  readonly url: string;
  readonly max: number;
  /** Shown by the server as the connections' `program_name` attribute. */
  readonly applicationName: string;
  /** Milliseconds to wait for a connection (opening one, or one of the pool's to be free). */
  readonly connectTimeoutMs: number;
  /** Errors of idle pooled connections (not reported once `close()` has begun). */
  readonly onIdleError?: (error: Error) => void;
}

/**
 * The `sql_mode` of every session: strict (a value that does not fit is an
 * error, never cut or zeroed), no zero dates, division by zero an error, no
 * silent change of storage engine. It leaves out `NO_BACKSLASH_ESCAPES`
 * (mysql2 escapes values with backslashes), `ANSI_QUOTES` and
 * `PIPES_AS_CONCAT` (they change what SQL means), and `ONLY_FULL_GROUP_BY`
 * (MariaDB's refuses grouped queries PostgreSQL takes).
 */
export const SESSION_SQL_MODE = 'STRICT_ALL_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION';

/**
 * What each new connection runs before its first statement: timestamps in
 * UTC (`NOW()`, `CURRENT_TIMESTAMP` defaults), the strict {@link SESSION_SQL_MODE},
 * and transactions at READ COMMITTED, as on PostgreSQL.
 */
export const SESSION_STATEMENTS: readonly string[] = [
  `SET SESSION time_zone = '+00:00', SESSION sql_mode = '${SESSION_SQL_MODE}'`,
  'SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED',
];

/** The URL's query parameters bindery reads. */
const URL_PARAMETERS = ['ssl', 'socket'];

/**
 * mysql2's pool options for `options.url`.
 * @throws {DatabaseUnreachableError} when the URL names no database, or has a parameter bindery does not read.
 */
export function poolOptionsOf(options: MysqlOptions): PoolOptions & { database: string } {
  const url = new URL(options.url);
  const refuse = (reason: string, advice: string) => DatabaseUnreachableError.from({ url: redactUrl(options.url), reason, advice });
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (database === '' || database.includes('/'))
    throw refuse('the URL names no database', 'Give the database after the host: mysql://user:password@host:3306/database.');
  for (const name of url.searchParams.keys()) {
    if (!URL_PARAMETERS.includes(name))
      throw refuse(`the URL parameter "${name}" is not one bindery reads`, `Use ${URL_PARAMETERS.join(' or ')}, or none.`);
  }
  const ssl = url.searchParams.get('ssl');
  if (ssl !== null && ssl !== 'true' && ssl !== 'false')
    throw refuse(`ssl=${ssl} is neither true nor false`, 'Give ssl=true for TLS with the certificate verified.');
  const socket = url.searchParams.get('socket');
  const password = decodeURIComponent(url.password);
  return {
    ...(socket === null
      ? { host: url.hostname.replace(/^\[(.*)\]$/, '$1') || 'localhost', port: Number(url.port || 3306) }
      : { socketPath: socket }),
    user: decodeURIComponent(url.username),
    ...(password === '' ? {} : { password }),
    database,
    ...(ssl === 'true' ? { ssl: { rejectUnauthorized: true } } : {}),
    connectionLimit: options.max,
    maxIdle: options.max,
    connectTimeout: options.connectTimeoutMs,
    connectAttributes: { program_name: options.applicationName },
    // utf8mb4 with a byte-exact collation: 4-byte characters (emoji) kept, literals compared as PostgreSQL does.
    charset: 'UTF8MB4_BIN',
    // DATETIME read and written as UTC; read as Date (milliseconds), as pg reads timestamptz.
    timezone: 'Z',
    dateStrings: false,
    // BIGINT and DECIMAL beyond a double's precision come as text: checked by the type cast, never rounded.
    supportBigNumbers: true,
    bigNumberStrings: false,
    decimalNumbers: false,
    typeCast: binderyTypeCast,
    // One statement per call: a text of several (a migration file) needs a connection of its own.
    multipleStatements: false,
    namedPlaceholders: false,
    waitForConnections: true,
  };
}
