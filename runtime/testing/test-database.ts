/**
 * A fresh, empty PostgreSQL database per test file (docs/testing.md).
 */
import { randomBytes } from 'node:crypto';
import { createPostgresDatabase, dropPostgresDatabase } from '../db/engines/postgres/server.js';

/** A database made by {@link createTestDatabase}. */
export interface TestDatabase {
  /** Connection URL of the new database (`postgres://…/test_<random>`). */
  readonly url: string;
  /** The database name. */
  readonly name: string;
  /** Drop the database, terminating its connections. Safe to call twice. */
  drop(): Promise<void>;
}

/**
 * The PostgreSQL server tests make their databases on: `serverUrl` when
 * given, else `BINDERY_TEST_DATABASE_URL`, else `DATABASE_URL`.
 *
 * @throws {Error} when none is set (start one in a vitest global setup with
 *   `startTestServer()` from `bindery/testing`, or set `DATABASE_URL`).
 */
export function testServerUrl(serverUrl?: string): string {
  const url = serverUrl ?? process.env['BINDERY_TEST_DATABASE_URL'] ?? process.env['DATABASE_URL'];
  if (url === undefined || url === '') {
    throw new Error(
      'bindery/testing: no PostgreSQL server for tests: set DATABASE_URL, or use startTestServer() in a vitest global setup (docs/testing.md)',
    );
  }
  return url;
}

/**
 * Create an empty database with a random name (`<prefix>_<12 hex>`) on the
 * test server (see {@link testServerUrl}); its user must be allowed to
 * create databases.
 *
 * @param options.serverUrl the server (any database on it), default {@link testServerUrl}.
 * @param options.prefix name prefix, default `test`; letters, digits and `_` only.
 * @throws {Error} on a bad prefix, or when the server refuses the connection or `CREATE DATABASE`.
 */
export async function createTestDatabase(options: { serverUrl?: string; prefix?: string } = {}): Promise<TestDatabase> {
  const serverUrl = testServerUrl(options.serverUrl);
  const prefix = options.prefix ?? 'test';
  if (!/^[a-z_][a-z0-9_]{0,40}$/i.test(prefix))
    throw new Error(`bindery/testing: database prefix "${prefix}" must be letters, digits and _`);
  const name = `${prefix}_${randomBytes(6).toString('hex')}`.toLowerCase();
  await createPostgresDatabase(serverUrl, name);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: () => dropPostgresDatabase(serverUrl, name),
  };
}
