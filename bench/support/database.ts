/**
 * A PostgreSQL database for a benchmark: a fresh database on the server of
 * `DATABASE_URL` (created, then dropped), or an embedded server in a
 * temporary folder (stopped and removed afterwards).
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../runtime/db/embedded/embedded-postgres.js';

export interface BenchDatabase {
  /** Connection URL of the database. */
  readonly url: string;
  /** Where it lives, for the report ("DATABASE_URL (database …)" or "embedded PostgreSQL …"). */
  readonly where: string;
  /** Drop the database, or stop the embedded server and remove its folder. */
  dispose(): Promise<void>;
}

/**
 * @param name the database to create on `DATABASE_URL` (dropped first when it exists).
 * @param log progress lines (the embedded server's folder).
 */
export async function benchDatabase(name: string, log: (line: string) => void): Promise<BenchDatabase> {
  const external = process.env.DATABASE_URL;
  if (external) {
    const admin = new pg.Client({ connectionString: external });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${name}"`);
    await admin.end();
    const url = new URL(external);
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      where: `DATABASE_URL (database ${name})`,
      async dispose() {
        const c = new pg.Client({ connectionString: external });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await c.end();
      },
    };
  }
  const dir = await mkdtemp(join(tmpdir(), 'bindery-bench-pg-'));
  await chmod(dir, 0o755); // as root, PostgreSQL runs as "postgres", which must enter the folder
  log(`Starting an embedded PostgreSQL in ${dir} …`);
  const server = await startEmbeddedPostgres({ dataDir: join(dir, 'postgres') });
  return {
    url: server.url(),
    where: `embedded PostgreSQL (default settings, data in ${dir})`,
    async dispose() {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
