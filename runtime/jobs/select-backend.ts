/**
 * Choosing the queue backend by the database engine (docs/jobs.md "Queue
 * backends"; docs/database.md "The job queue"): PostgreSQL's is
 * graphile-worker, MySQL's and MariaDB's the MySQL queue; another engine is
 * refused, naming it.
 */
import type { AnyKysely } from '../db/any-kysely.js';
import type { DatabaseEngine } from '../db/engine.js';
import type { QueueBackend } from './backend.js';
import { JobsEngineUnsupportedError } from './errors.js';
import { sqlDialectOf } from '../db/sql-dialect.js';
import { graphileBackend } from './graphile/graphile-backend.js';
import { mysqlBackend } from './mysql/mysql-backend.js';

/**
 * The queue backend of an engine.
 * @param engine the app's database engine (`database.engine`); only its `name` is read.
 * @throws {JobsEngineUnsupportedError} `BINDERY_JOBS_ENGINE_UNSUPPORTED`, naming the engine, when it has no backend yet.
 * @example queueBackendFor(database.engine).name // 'graphile-worker' on PostgreSQL, 'mysql-queue' on MySQL and MariaDB
 */
export function queueBackendFor(engine: Pick<DatabaseEngine, 'name'>): QueueBackend {
  switch (engine.name) {
    case 'postgres':
      return graphileBackend;
    case 'mysql':
    case 'mariadb':
      return mysqlBackend;
    default:
      throw new JobsEngineUnsupportedError(
        `The job queue has no backend for the database engine "${engine.name}" yet: jobs() runs on PostgreSQL (graphile-worker), MySQL and MariaDB (the MySQL queue). Run the app on one of them, or leave jobs(), schedule() and events() out of its setup list (docs/jobs.md "Queue backends").`,
      );
  }
}

/** The backend of each app database with `jobs()`, by its Kysely instance. */
const backends = new WeakMap<AnyKysely, QueueBackend>();

/** @internal Record the backend of an app's database (the jobs runtime, at boot). */
export function rememberQueueBackend(db: AnyKysely, backend: QueueBackend): void {
  backends.set(db, backend);
}

/** Where the exported failed-jobs functions read: a `Database` (`{ db, engine }`) or a Kysely instance. */
export type JobsDatabase = AnyKysely | { readonly db: AnyKysely; readonly engine: Pick<DatabaseEngine, 'name'> };

/**
 * The backend and the Kysely instance to use for `database`: a `Database` by
 * its engine; the database of an app with `jobs()` (`services.db`) by that
 * app's backend; any other Kysely instance (a transaction, one opened by
 * hand) by the SQL it speaks: MySQL's is read as the MySQL queue, any other
 * as PostgreSQL's graphile-worker.
 * @throws {JobsEngineUnsupportedError} for a `Database` whose engine has no backend.
 */
export function queueBackendOf(database: JobsDatabase): { readonly backend: QueueBackend; readonly db: AnyKysely } {
  if ('engine' in database) return { backend: queueBackendFor(database.engine), db: database.db };
  return { backend: backends.get(database) ?? backendBySql(database), db: database };
}

/** The backend of a Kysely instance bindery did not record: by its dialect's SQL family. */
function backendBySql(db: AnyKysely): QueueBackend {
  let dialect: string;
  try {
    dialect = sqlDialectOf(db);
  } catch {
    return graphileBackend;
  }
  return dialect === 'mysql' ? mysqlBackend : graphileBackend;
}
