/**
 * Choosing the queue backend by the database engine (docs/jobs.md "Queue
 * backends"; docs/database.md "The job queue"): PostgreSQL's is
 * graphile-worker; another engine is refused, naming it, until it has one.
 */
import type { AnyKysely } from '../db/any-kysely.js';
import type { DatabaseEngine } from '../db/engine.js';
import type { QueueBackend } from './backend.js';
import { JobsEngineUnsupportedError } from './errors.js';
import { graphileBackend } from './graphile/graphile-backend.js';

/**
 * The queue backend of an engine.
 * @param engine the app's database engine (`database.engine`); only its `name` is read.
 * @throws {JobsEngineUnsupportedError} `BINDERY_JOBS_ENGINE_UNSUPPORTED`, naming the engine, when it has no backend yet.
 * @example queueBackendFor(database.engine).name // 'graphile-worker'
 */
export function queueBackendFor(engine: Pick<DatabaseEngine, 'name'>): QueueBackend {
  switch (engine.name) {
    case 'postgres':
      return graphileBackend;
    default:
      throw new JobsEngineUnsupportedError(
        `The job queue has no backend for the database engine "${engine.name}" yet: jobs() runs on PostgreSQL (graphile-worker). Run the app on PostgreSQL, or leave jobs(), schedule() and events() out of its setup list (docs/jobs.md "Queue backends").`,
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
 * hand) is read as PostgreSQL's graphile-worker, as it was before engines
 * were told apart.
 * @throws {JobsEngineUnsupportedError} for a `Database` whose engine has no backend.
 */
export function queueBackendOf(database: JobsDatabase): { readonly backend: QueueBackend; readonly db: AnyKysely } {
  if ('engine' in database) return { backend: queueBackendFor(database.engine), db: database.db };
  return { backend: backends.get(database) ?? graphileBackend, db: database };
}
