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
  type PartlyAppliedMigration,
  type Migrator,
} from './migrator.js';
export {
  ENGINE_FOLDERS,
  engineTitle,
  migrationChecksum,
  migrationFamilyOf,
  migrationLabel,
  readMigrationFolder,
  readMigrationSet,
  resolveMigrationFolder,
  validateMigrationSets,
  type MigrationFile,
  type MigrationFolder,
  type MigrationSet,
} from './migration-set.js';
export {
  MigrationChangedError,
  MigrationEngineMissingError,
  MigrationFailedError,
  MigrationSetError,
  type FailedStatement,
} from './errors.js';
export { printMigrationProgress, type TextSink } from './progress.js';
