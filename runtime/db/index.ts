/**
 * The database layer: connecting (Kysely + pg), the embedded PostgreSQL,
 * the migrator, factories and seeds (docs/database.md); following the
 * statements of a pool (docs/observability.md).
 */
export { connectDatabase, type ConnectDatabaseOptions, type Database } from './connect.js';
export type {
  DatabaseEngine,
  DatabaseErrorInfo,
  DatabaseErrorKind,
  EngineCapabilities,
  EngineConnection,
  EngineName,
  EngineSql,
  PoolStats,
  StatementResult,
} from './engine.js';
export {
  databaseErrorOf,
  isCheckViolation,
  isForeignKeyViolation,
  isSerializationFailure,
  isUndefinedTable,
  isUniqueViolation,
} from './database-errors.js';
export {
  compiledInsertReturning,
  insertIfAbsent,
  insertReturning,
  updateReturning,
  upsert,
  type ConflictOptions,
  type ReturningOptions,
  type UpsertOptions,
} from './portable-writes.js';
export { compiledQuery } from './compiled-query.js';
export { DatabaseReadOnlyError, DatabaseUnavailableError } from './unavailable.js';
export { UnsafeIntegerError } from './errors.js';
export { createFactories, type Factory, type FactoryFieldPlan, type FactoryPlan } from './factories.js';
export type { Seed, SeedContext } from './seeds.js';
