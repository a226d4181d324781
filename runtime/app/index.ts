/**
 * Booting apps: `defineApp`, `startApp`, `createTestApp`, setup steps
 * (docs/boot.md).
 */
export { APP_BRAND, appCommands, appMigrationSets, defineApp, isApp, type App, type AppDefinition } from './define-app.js';
export type { ReadinessCheck, SetupContext, SetupStep, StepRequirement } from './setup-step.js';
export { startApp, type RunningApp, type StartAppOptions } from './start-app.js';
export { createTestApp, type TestApp, type TestAppOptions } from './test-app.js';
export { openApp, type OpenedApp } from './open-app.js';
export { bootApp, type BootedApp } from './boot-app.js';
export { loadAppSettings, type AppSettings } from './app-settings.js';
export { EMBEDDED_DATA_DIR, openAppDatabase, type AppDatabase } from './app-database.js';
export { runMigrations } from './run-migrations.js';
export { createLogger } from './logger.js';
export { AppDefinitionError, ListenError, SetupError } from './errors.js';
