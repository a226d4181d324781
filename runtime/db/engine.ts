/**
 * The database seam (docs/database.md "Engines"; ARCHITECTURE.md "The
 * database seam"): what bindery's subsystems ask of a database, over neutral
 * arguments — column lists, aliases, bindery's own column types — so that
 * PostgreSQL, MySQL and MariaDB each answer it in their own folder
 * (`runtime/db/engines/<engine>/`) and nothing else names an engine.
 *
 * Subsystems whose work rests on a mechanism only some engines have (the
 * audit log's single-statement writes, the job queue, the migrator's
 * transactional files) keep a strategy per engine beside their own code,
 * named for it (`runtime/audit/writers/postgres.ts`), and choose it by
 * {@link DatabaseEngine.name} and {@link DatabaseEngine.capabilities}.
 */
import type { Dialect, Expression, RawBuilder } from 'kysely';
import type { ColumnTypeText } from './column-type.js';
import type { QueryObserver } from './query-observer.js';

/** The engines bindery speaks. */
export type EngineName = 'postgres' | 'mysql' | 'mariadb';

/** What an engine can do, for the subsystems that choose a strategy by it. */
export interface EngineCapabilities {
  /** `INSERT/UPDATE/DELETE … RETURNING` (Kysely's `.returning()`). */
  readonly returning: boolean;
  /** Data-modifying statements inside `WITH` (a write and its audit entry in one statement). */
  readonly writableCte: boolean;
  /** DDL inside a transaction: a failing migration file rolls back whole. */
  readonly transactionalDdl: boolean;
  /** `FOR UPDATE SKIP LOCKED`. */
  readonly skipLocked: boolean;
  /** Indexes with a `WHERE` (`unique: live` among rows not soft-deleted). */
  readonly partialIndexes: boolean;
  /** Native arrays as column types (`text[]`); without them lists are JSON. */
  readonly arrays: boolean;
  /** How JSON is stored: `jsonb` (binary, compared by value), `json` (validated text). */
  readonly json: 'jsonb' | 'json';
}

/** Rows and affected-row count of one statement. */
export interface StatementResult<R> {
  readonly rows: R[];
  readonly rowCount: number;
}

/** Options of one statement. */
export interface RunOptions {
  /** Parse and plan the statement text once per connection (a named prepared statement). Default true on the pool's hot paths. */
  readonly prepare?: boolean;
}

/** One connection held for a sequence of statements (the migrator, the audit log's transactions). */
export interface EngineConnection {
  /**
   * Run one statement (`$1`-style or `?`-style placeholders, as {@link DatabaseEngine.placeholder} says).
   * A text of several statements without parameters (a migration file) runs them all where the engine allows it (PostgreSQL does); the result is the last one's.
   */
  run<R = Record<string, unknown>>(text: string, parameters?: readonly unknown[], options?: RunOptions): Promise<StatementResult<R>>;
  /** Take the named lock of this connection's session at once. @returns false when another session holds it. */
  tryLock(name: string): Promise<boolean>;
  /** Wait for the named lock of this connection's session. */
  lock(name: string): Promise<void>;
  /** Give back the named lock. */
  unlock(name: string): Promise<void>;
  /**
   * Hand the connection back. `discard` ends it instead of keeping it in the
   * pool (after a failure, or when the session's state — `SET`, locks — must
   * not leak to the next user).
   */
  release(discard?: boolean | Error): void;
}

/** The pool's connections right now, for the metrics. */
export interface PoolStats {
  readonly total: number;
  readonly idle: number;
  /** Requests waiting for a connection. */
  readonly waiting: number;
  readonly max: number;
}

/** The kinds of database error an app or a subsystem tests for (see `database-errors.ts`). */
export type DatabaseErrorKind =
  | 'unique-violation'
  | 'foreign-key-violation'
  | 'check-violation'
  | 'not-null-violation'
  | 'serialization-failure'
  | 'deadlock'
  | 'read-only'
  | 'connection-lost'
  | 'undefined-table';

/** What an engine says of one of its errors. */
export interface DatabaseErrorInfo {
  readonly kind: DatabaseErrorKind;
  /** The constraint or index named by the error (a unique index, a foreign key, a CHECK), when the engine says it. */
  readonly constraint?: string;
}

/**
 * The SQL pieces that queries written once for every engine need (the list
 * runner, counts, filters): each takes neutral arguments and gives the
 * engine's SQL.
 */
export interface EngineSql {
  /** `value` read as a column of `type` (a parameter compared with a column, a cursor's text read back). */
  cast(value: unknown, type: ColumnTypeText): RawBuilder<unknown>;
  /**
   * The exact text of a column's value, the same on every engine for the
   * same value (timestamps as `YYYY-MM-DDTHH:MM:SS.ffffffZ` in UTC, integers
   * in decimal, strings as they are): what a cursor keeps, read back with
   * {@link cast}.
   */
  sortKeyText(column: Expression<unknown>, type: ColumnTypeText): RawBuilder<string>;
  /** `count(*)` as a JavaScript number. */
  countAll(): RawBuilder<number>;
  /** Whether the list column `column` holds `value` (of the list's item type `itemType`). */
  listContains(column: Expression<unknown>, value: unknown, itemType: ColumnTypeText): RawBuilder<boolean>;
  /** Whether the text column `column` holds `value` anywhere. */
  textContains(column: Expression<unknown>, value: unknown): RawBuilder<boolean>;
}

/**
 * One open database: its Kysely dialect, its pool, and the engine's answers
 * (docs/database.md "Engines"). Made by `connectDatabase`, reached as
 * `Database.engine`.
 */
export interface DatabaseEngine {
  /** The engine: `postgres`, `mysql` or `mariadb`. */
  readonly name: EngineName;
  /** The server's version as it reports it (`18.4`, `10.11.9-MariaDB`), read at connect. */
  readonly serverVersion: string;
  readonly capabilities: EngineCapabilities;
  readonly sql: EngineSql;
  /** The placeholder style of {@link run}: `$1` (PostgreSQL) or `?` (MySQL). */
  readonly placeholder: '$n' | '?';
  /** Kysely's dialect over this engine's pool (connection failures reject as `DatabaseUnavailableError`). */
  readonly dialect: Dialect;
  /** The connection URL as given (password included: for a subsystem that opens a pool of its own). */
  readonly url: string;
  /**
   * Run one statement on a pooled connection, outside any transaction (the
   * hot paths: compiled queries, the audit log's own writes).
   * @throws {DatabaseUnavailableError} when the connection failed; the engine's error for a failing statement.
   */
  run<R = Record<string, unknown>>(text: string, parameters?: readonly unknown[], options?: RunOptions): Promise<StatementResult<R>>;
  /**
   * Hold one connection until it is released.
   * @throws {DatabaseUnavailableError} when none can be opened.
   */
  connect(): Promise<EngineConnection>;
  /** What the engine says of `error`, or `undefined` when it is not one of the {@link DatabaseErrorKind}s. Never throws. */
  classify(error: unknown): DatabaseErrorInfo | undefined;
  /** Whether the table exists (schema-qualified names allowed where the engine has schemas). */
  tableExists(name: string): Promise<boolean>;
  /** Why the database refuses writes (a standby, a read-only setting), or `undefined` when it takes them. */
  readOnlyReason(): Promise<string | undefined>;
  /** The pool's connections right now. */
  poolStats(): PoolStats;
  /**
   * Tell `observer` of every statement sent on this engine's pool from now on.
   * @throws {Error} when the pool already has an observer (one per pool).
   */
  observe(observer: QueryObserver): void;
  /** End the pool once every connection has ended (at most 5 s). Idempotent. */
  close(): Promise<void>;
}
