/**
 * The database layer: connecting (Kysely + pg), the embedded PostgreSQL,
 * the migrator, factories and seeds (docs/database.md).
 */
export { connectDatabase, type ConnectDatabaseOptions, type Database } from './connect.js';
export { createDatabaseIfMissing, withDatabaseName } from './create-database.js';
export { binderyTypes, parseInt8 } from './type-parsers.js';
export { compiledQuery, executeBuilt } from './compiled-query.js';
export { redactUrl } from './redact-url.js';
export { asUnavailable, DatabaseReadOnlyError, DatabaseUnavailableError, isConnectionFailure, isReadOnlyFailure } from './unavailable.js';
export { DatabaseUnreachableError, EmbeddedPostgresError, UnsafeIntegerError } from './errors.js';
export { startEmbeddedPostgres, type EmbeddedPostgres, type EmbeddedPostgresOptions } from './embedded/index.js';
export * from './migrator/index.js';
export { createFactories, type Factory, type FactoryFieldPlan, type FactoryPlan } from './factories.js';
export { runSeeds, seedFiles, SeedFailedError, SEEDS_DIR, type Seed, type SeedContext } from './seeds.js';
