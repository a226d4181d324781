/**
 * A fresh, empty database per test file (or per test) on the run's server.
 *
 * @example
 *   const db = await createTestDatabase();
 *   afterAll(() => db.drop());
 *   // db.url is a postgres:// URL of an empty database
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

export interface TestDatabase {
  /** Connection URL of the new database. */
  readonly url: string;
  /** Database name. */
  readonly name: string;
  /** Drop the database (terminating its connections). */
  drop(): Promise<void>;
}

/** Create an empty database with a random name on the test server. */
export async function createTestDatabase(prefix = 'test'): Promise<TestDatabase> {
  const serverUrl = inject('pgUrl');
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
