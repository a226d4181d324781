/**
 * The migrator's two bookkeeping tables (docs/database.md "Migrations"),
 * named once for the neutral core and every engine's strategy.
 */

/** Name of the table recording applied migrations: `(source, name, checksum, applied_at)`, key `(source, name)`. */
export const MIGRATIONS_TABLE = 'bindery_migrations';

/**
 * Name of the table recording the last failure of each migration not
 * applied yet: `(source, name, checksum, error, failed_at)`, key `(source, name)`.
 */
export const FAILURES_TABLE = 'bindery_migration_failures';
