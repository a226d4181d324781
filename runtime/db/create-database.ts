/**
 * Creating a database on a server when it does not exist yet (the embedded
 * PostgreSQL's app database; docs/database.md).
 */
import pg from 'pg';
import { DatabaseUnreachableError } from './errors.js';
import { redactUrl } from './redact-url.js';

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
