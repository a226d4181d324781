/**
 * Booting an app inside a test (docs/boot.md "Testing an app"): one helper
 * for app tests and plugin tests alike.
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { generateAppKey } from '../config/app-key.js';
import type { Env } from '../config/setting.js';
import type { App } from './define-app.js';
import { startApp, type RunningApp } from './start-app.js';
import type { UntypedTables } from '../db/any-kysely.js';

/** Options of {@link createTestApp}. */
export interface TestAppOptions {
  /** The database to use, e.g. `(await createTestDatabase()).url`. Required: tests never start the embedded server. */
  readonly databaseUrl: string;
  /** Extra settings; they override the test defaults. `DATABASE_URL` and `HTTP_ADDR` are always set by the helper. */
  readonly env?: Env;
  /** Apply the app's migrations first (default true). */
  readonly migrate?: boolean;
  /** The app's clock, ms since the epoch (default `Date.now`), e.g. `testClock().now` (docs/testing.md#time). */
  readonly now?: () => number;
}

/** A booted test app. */
export interface TestApp<DB = UntypedTables> {
  /** Base URL, `http://127.0.0.1:<free port>`. */
  readonly url: string;
  /** The Fastify instance (for `inject`, or `app.server`). */
  readonly app: FastifyInstance;
  /** Kysely over the test database. */
  readonly db: Kysely<DB>;
  /** The full running handle. */
  readonly running: RunningApp;
  /** Shut down (server, pool). Call it in `afterAll`. */
  close(): Promise<void>;
}

/**
 * Boot `app` against `databaseUrl` on `127.0.0.1:0`.
 *
 * The environment is hermetic: neither `process.env` nor `.env` is read.
 * Defaults: `APP_ENV=testing`, a fresh `APP_KEY`, `LOG_LEVEL=silent`; no
 * signal handlers, no progress output.
 *
 * @throws whatever `startApp` throws (settings, database, migrations, listen).
 * @example
 *   const database = await createTestDatabase();
 *   const t = await createTestApp(notesApp, { databaseUrl: database.url });
 *   afterAll(async () => { await t.close(); await database.drop(); });
 *   const res = await fetch(`${t.url}/notes`);
 */
export async function createTestApp<DB = UntypedTables>(app: App, options: TestAppOptions): Promise<TestApp<DB>> {
  const env: Env = {
    APP_ENV: 'testing',
    APP_KEY: generateAppKey(),
    LOG_LEVEL: 'silent',
    ...options.env,
    DATABASE_URL: options.databaseUrl,
    HTTP_ADDR: '127.0.0.1:0',
  };
  const running = await startApp(app, {
    env,
    migrate: options.migrate ?? true,
    handleSignals: false,
    out: () => {},
    ...(options.now === undefined ? {} : { now: options.now }),
  });
  return { url: running.url, app: running.server, db: running.db as Kysely<DB>, running, close: () => running.close() };
}
