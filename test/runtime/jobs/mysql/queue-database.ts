/**
 * What the MySQL queue's tests share: a throwaway MariaDB database with the
 * `jobs` migration set's MySQL files applied (statement by statement, as
 * each file is a list of statements), a logger whose lines the test reads,
 * and the jobs runtime of an app over it (what `jobs()` makes at boot).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { connectDatabase, type Database } from '../../../../runtime/db/connect.js';
import type { Services } from '../../../../runtime/http/context.js';
import type { AnyJobDefinition } from '../../../../runtime/jobs/define-job.js';
import { JobsRuntime } from '../../../../runtime/jobs/jobs-runtime.js';
import { createTestMariaDatabase, type TestDatabase } from '../../../support/database.js';

/** The `jobs` migration set's files for MySQL and MariaDB. */
export const MYSQL_JOBS_MIGRATIONS = fileURLToPath(new URL('../../../../runtime/jobs/migrations/mysql/', import.meta.url));

/** The statements of a migration file: `--` comment lines dropped, split where a line ends with `;`. */
export function statementsOf(text: string): string[] {
  const lines = text.split('\n').filter((line) => !line.trimStart().startsWith('--'));
  return lines
    .join('\n')
    .split(/;\s*$/m)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** Apply the MySQL files of the `jobs` set to `database`, in name order. */
export async function applyJobsMigrations(database: Database): Promise<void> {
  const names = (await readdir(MYSQL_JOBS_MIGRATIONS)).filter((n) => n.endsWith('.sql')).sort();
  for (const name of names) {
    for (const statement of statementsOf(await readFile(join(MYSQL_JOBS_MIGRATIONS, name), 'utf8'))) await database.engine.run(statement);
  }
}

/** A throwaway MariaDB database with the queue's tables, and a second pool on it when asked (another "instance"). */
export async function openQueueDatabase(prefix: string): Promise<{ testDb: TestDatabase; database: Database; close(): Promise<void> }> {
  const testDb = await createTestMariaDatabase(prefix);
  const database = await connectDatabase({ url: testDb.url, max: 10 });
  await applyJobsMigrations(database);
  return {
    testDb,
    database,
    async close() {
      await database.close();
      await testDb.drop();
    },
  };
}

/** A logger writing JSON lines into `lines`. */
export function captureLog(): { lines: Array<Record<string, unknown>>; log: pino.Logger } {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
      done();
    },
  });
  return { lines, log: pino({ level: 'debug' }, stream) };
}

/** The jobs runtime of an app on `database` with `jobs`, as `jobs()` makes it (its services: the database, and `services`). */
export function jobsRuntimeOn(
  database: Database,
  jobs: readonly AnyJobDefinition[],
  options: {
    log: pino.Logger;
    concurrency?: number;
    pollIntervalMs?: number;
    heartbeatIntervalMs?: number;
    deadAfterMs?: number;
    services?: Record<string, unknown>;
  },
): JobsRuntime {
  const runtime = new JobsRuntime({
    database,
    log: options.log,
    services: { db: database.db, ...options.services } as unknown as Services,
    appName: 'mysql_queue_test',
    concurrency: options.concurrency ?? 2,
    pollIntervalMs: options.pollIntervalMs ?? 100,
    heartbeatIntervalMs: options.heartbeatIntervalMs ?? 100,
    deadAfterMs: options.deadAfterMs ?? 1000,
  });
  for (const job of jobs) runtime.registerJob(job, 'jobs()');
  return runtime;
}
