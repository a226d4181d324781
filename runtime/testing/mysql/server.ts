/**
 * A MySQL or MariaDB server reached by one short-lived connection of its
 * own, outside any app pool: creating and dropping the test kit's databases
 * (docs/testing.md "The database server").
 */
import mysql from 'mysql2';

/** Character set and collation of a database made by {@link createMysqlDatabase}. */
export interface MysqlDatabaseCharset {
  /** Default `utf8mb4`. */
  readonly charset?: string;
  /** Default `utf8mb4_bin` (byte-exact, as bindery's MySQL tables are); the charset's own default when another charset is given. */
  readonly collation?: string;
}

/**
 * Create the empty database `name` (letters, digits and `_`: it is quoted, not escaped).
 * @throws mysql2's error when the server refuses the connection or `CREATE DATABASE`.
 */
export function createMysqlDatabase(serverUrl: string, name: string, options: MysqlDatabaseCharset = {}): Promise<unknown> {
  const charset = options.charset ?? 'utf8mb4';
  const collation = options.collation ?? (options.charset === undefined ? 'utf8mb4_bin' : undefined);
  return onMysqlServer(serverUrl, `CREATE DATABASE \`${name}\` CHARACTER SET ${charset}${collation ? ` COLLATE ${collation}` : ''}`);
}

/**
 * Drop the database `name` if it exists.
 * @throws mysql2's error when the server refuses the connection or `DROP DATABASE`.
 */
export function dropMysqlDatabase(serverUrl: string, name: string): Promise<unknown> {
  return onMysqlServer(serverUrl, `DROP DATABASE IF EXISTS \`${name}\``);
}

/**
 * Run one statement on the server of `serverUrl` (its database path, if any, is not used), over a connection of its own.
 * @returns its rows (none for a statement that returns none).
 * @throws mysql2's error when the server refuses the connection or the statement.
 */
export async function onMysqlServer(serverUrl: string, statement: string): Promise<Record<string, unknown>[]> {
  const url = new URL(serverUrl);
  const connection = mysql
    .createConnection({
      host: url.hostname,
      port: Number(url.port || 3306),
      user: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
    })
    .promise();
  try {
    const [result] = await connection.query(statement);
    return Array.isArray(result) ? (result as Record<string, unknown>[]) : [];
  } finally {
    await connection.end();
  }
}
