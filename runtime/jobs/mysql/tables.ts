/**
 * The MySQL queue's tables as Kysely sees them (created by the `jobs`
 * migration set on MySQL and MariaDB: `migrations/mysql/0002_create_jobs_queue.sql`).
 */
import type { ColumnType, Generated, Kysely } from 'kysely';
import type { AnyKysely } from '../../db/any-kysely.js';

/** An instant: read as a `Date` (UTC), written as a `Date` or an SQL expression. */
type Instant = ColumnType<Date, Date | undefined, Date>;

/** `jobs_queue`: one row per job until it succeeds. */
export interface JobsQueueTable {
  id: Generated<number>;
  /** The registered task's name. */
  task: string;
  /** The stored payload: JSON text when written, parsed (or text) when read. */
  payload: ColumnType<unknown, string, string>;
  queue_name: string | null;
  run_at: Instant;
  priority: Generated<number>;
  /** Attempts started so far (a claim counts one). */
  attempts: Generated<number>;
  max_attempts: Generated<number>;
  job_key: string | null;
  /** How many times a waiting job was replaced through its key. */
  revision: Generated<number>;
  last_error: string | null;
  locked_by: string | null;
  locked_at: Date | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** `jobs_queue_locks`: one row per queue name; held while one of its jobs runs. */
export interface JobsQueueLocksTable {
  queue_name: string;
  locked_by: string | null;
  locked_at: Date | null;
}

/** `jobs_cron_tasks`: one row per scheduled task, with the last minute queued for it. */
export interface JobsCronTasksTable {
  task: string;
  known_since: Date;
  last_execution: Date | null;
}

/** The queue's tables. */
export interface QueueTables {
  jobs_queue: JobsQueueTable;
  jobs_queue_locks: JobsQueueLocksTable;
  jobs_cron_tasks: JobsCronTasksTable;
}

/** A Kysely instance (or transaction) over the queue's tables. */
export type QueueDb = Kysely<QueueTables>;

/** `db` typed for the queue's tables (the app's Kysely instance has its own table map). */
export function queueDb(db: AnyKysely): QueueDb {
  return db as QueueDb;
}
