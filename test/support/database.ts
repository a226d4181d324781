/**
 * A fresh, empty database per test file (or per test) on the run's servers:
 * PostgreSQL (`createTestDatabase`) and MariaDB (`createTestMariaDatabase`).
 *
 * @example
 *   const db = await createTestDatabase();
 *   afterAll(() => db.drop());
 *   // db.url is a postgres:// URL of an empty database
 */
import { randomBytes } from 'node:crypto';
import mysql from 'mysql2';
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

/** Options of {@link createTestMariaDatabase}. */
export interface TestMariaDatabaseOptions {
  /** The database's character set (default `utf8mb4`). */
  readonly charset?: string;
  /** Its collation (default `utf8mb4_bin`; the charset's own default when another charset is given). */
  readonly collation?: string;
  /** The URL's scheme (default `mariadb`). */
  readonly scheme?: 'mariadb' | 'mysql';
}

/**
 * Create an empty database with a random name on the run's MariaDB server (`inject('mariadbUrl')`).
 * @returns its `mariadb://` URL (or `mysql://`), its name and `drop()`.
 */
export async function createTestMariaDatabase(prefix = 'test', options: TestMariaDatabaseOptions = {}): Promise<TestDatabase> {
  const serverUrl = inject('mariadbUrl');
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const charset = options.charset ?? 'utf8mb4';
  const collation = options.collation ?? (options.charset === undefined ? 'utf8mb4_bin' : undefined);
  await onMariaServer(serverUrl, `CREATE DATABASE \`${name}\` CHARACTER SET ${charset}${collation ? ` COLLATE ${collation}` : ''}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const text = url.toString().replace(/^[a-z]+:/, `${options.scheme ?? 'mariadb'}:`);
  return {
    url: text,
    name,
    async drop() {
      await onMariaServer(serverUrl, `DROP DATABASE IF EXISTS \`${name}\``);
    },
  };
}

/** Run one statement on the MariaDB server of `serverUrl`, over a connection of its own. @returns its rows (none for a statement that returns none). */
export async function onMariaServer(serverUrl: string, statement: string): Promise<Record<string, unknown>[]> {
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
