/**
 * The first half of every boot (serve, start, migrate, tests): settings,
 * logger, database and migrator (docs/boot.md "Boot sequence").
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Env } from '../config/setting.js';
import { createMigrator, type Migrator } from '../db/migrator/migrator.js';
import type { MigrationSet } from '../db/migrator/migration-set.js';
import { openAppDatabase, type AppDatabase } from './app-database.js';
import { loadAppSettings, type AppSettings } from './app-settings.js';
import { appMigrationSets, type App } from './define-app.js';
import { createLogger, type LogDestination } from './logger.js';

/** An app with its settings loaded and its database open. */
export interface OpenedApp {
  readonly app: App;
  readonly settings: AppSettings;
  readonly log: FastifyBaseLogger;
  readonly db: AppDatabase;
  /** Every migration set: the app's, then each setup step's. */
  readonly migrationSets: readonly MigrationSet[];
  readonly migrator: Migrator;
  /** Close the database (and stop the embedded server). */
  close(): Promise<void>;
}

/** Options of {@link openApp} (and of `bootApp`). */
export interface OpenAppOptions {
  /** Where the app's log lines go (default: stdout), in the `LOG_FORMAT`. */
  readonly logDestination?: LogDestination;
}

/**
 * Load settings (throwing before touching the database when any is bad), open the database, build the migrator.
 * @param out progress text (not log lines: the embedded PostgreSQL's creation, applied migrations).
 * @throws {SettingsError} listing every bad setting.
 * @throws {DatabaseUnreachableError} | {EmbeddedPostgresError} when the database cannot be opened.
 */
export async function openApp(app: App, env: Env, out: (text: string) => void, options: OpenAppOptions = {}): Promise<OpenedApp> {
  const settings = loadAppSettings(app, env);
  const log = createLogger(settings.core.LOG_LEVEL, app.name, {
    format: settings.core.LOG_FORMAT,
    ...(options.logDestination === undefined ? {} : { destination: options.logDestination }),
  });
  const db = await openAppDatabase(app, settings.core, log, out);
  try {
    const migrationSets = appMigrationSets(app);
    const migrator = createMigrator(db.database, migrationSets);
    return { app, settings, log, db, migrationSets, migrator, close: () => db.close() };
  } catch (error) {
    await db.close();
    throw error;
  }
}
