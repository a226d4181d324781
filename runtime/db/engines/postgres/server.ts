/**
 * A PostgreSQL server reached by one short-lived client of its own, outside
 * any app pool: whether it accepts connections (the embedded server's start),
 * creating a database when missing (the embedded server's app database;
 * docs/database.md "Choosing the server"), creating and dropping the test
 * kit's databases (docs/testing.md).
 */
import pg from 'pg';
import { DatabaseUnreachableError } from '../../errors.js';
import { redactUrl } from '../../redact-url.js';

/**
 * Create database `name` on the server of `serverUrl` unless it exists.
 *
 * Safe to call concurrently: a concurrent creation (`duplicate_database`) counts as success.
 *
 * @param serverUrl URL of any database on the server whose user may create databases (e.g. `…/postgres`).
 * @param name database name (any text; quoted as an identifier).
 * @returns true when it was created now.
 * @throws {DatabaseUnreachableError} when the server cannot be reached; the pg error for other failures.
 */
export async function createDatabaseIfMissing(serverUrl: string, name: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: serverUrl });
  try {
    await client.connect();
  } catch (error) {
    throw new DatabaseUnreachableError(`Cannot connect to ${redactUrl(serverUrl)}: ${(error as Error).message}`, { cause: error });
  }
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount) return false;
    try {
      await client.query(`create database ${client.escapeIdentifier(name)}`);
      return true;
    } catch (error) {
      if ((error as { code?: string }).code === '42P04') return false;
      throw error;
    }
  } finally {
    await client.end().catch(() => {});
  }
}

/** `serverUrl` with its database path replaced by `name`. */
export function withDatabaseName(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${encodeURIComponent(name)}`;
  return url.toString();
}

/**
 * Create the empty database `name` (letters, digits and `_`: it is quoted, not escaped).
 * @throws pg's error when the server refuses the connection or `CREATE DATABASE`.
 */
export function createPostgresDatabase(serverUrl: string, name: string): Promise<void> {
  return runOnServer(serverUrl, `CREATE DATABASE "${name}"`);
}

/**
 * Drop the database `name` if it exists, ending its sessions first (`WITH (FORCE)`).
 * @throws pg's error when the server refuses the connection or `DROP DATABASE`.
 */
export function dropPostgresDatabase(serverUrl: string, name: string): Promise<void> {
  return runOnServer(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
}

async function runOnServer(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Where and as whom {@link postgresAcceptsConnections} connects. */
export interface PostgresServerAddress {
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly password: string;
  readonly database: string;
  /** Milliseconds to wait for the connection. */
  readonly connectTimeoutMs: number;
}

/** Whether the server answers `select 1` over a connection of its own. Never throws. */
export async function postgresAcceptsConnections(address: PostgresServerAddress): Promise<boolean> {
  const client = new pg.Client({
    host: address.host,
    port: address.port,
    user: address.user,
    password: address.password,
    database: address.database,
    connectionTimeoutMillis: address.connectTimeoutMs,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}
