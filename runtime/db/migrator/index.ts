/** The migrator (docs/database.md "Migrations"). */
export {
  createMigrator,
  FAILURES_TABLE,
  MIGRATIONS_TABLE,
  type AppliedMigration,
  type FailedMigration,
  type MigrateResult,
  type MigrationEvent,
  type MigrationStatus,
  type Migrator,
} from './migrator.js';
export {
  migrationChecksum,
  migrationLabel,
  readMigrationSet,
  validateMigrationSets,
  type MigrationFile,
  type MigrationSet,
} from './migration-set.js';
export { MigrationChangedError, MigrationFailedError, MigrationSetError } from './errors.js';
export { printMigrationProgress, type TextSink } from './progress.js';
