/**
 * The MySQL and MariaDB engine (docs/database.md "MySQL and MariaDB"): a
 * mysql2 pool whose connections each set up their session first (UTC,
 * strict `sql_mode`, READ COMMITTED), Kysely's `MysqlDialect` over it, and
 * the seam's answers — statements on the pool (server-side prepared
 * statements on request), connections with named locks (`GET_LOCK`),
 * errors by kind, the pool's figures, readiness and statement observation.
 */
import { createHash } from 'node:crypto';
import { MysqlDialect } from 'kysely';
import mysql, { type Pool, type PoolConnection } from 'mysql2';
import type { DatabaseEngine, EngineCapabilities, RunOptions, StatementResult } from '../../engine.js';
import { asUnavailable, DatabaseUnavailableError, isConnectionFailure, rethrowUnavailable } from '../../unavailable.js';
import { connectionOf } from './connection.js';
import { classifyMysqlError } from './errors.js';
import { kyselyPool, type ConnectionSource } from './kysely-pool.js';
import { observeMysqlPool } from './observe-queries.js';
import { poolOptionsOf, SESSION_STATEMENTS, type MysqlOptions } from './pool-options.js';
import { checkServer, PROBE_STATEMENT, type ProbedSettings } from './server-checks.js';
import { mysqlSql } from './sql.js';
import { resultOf, send } from './statements.js';

/**
 * What MySQL 8.0.16+ and MariaDB 10.6+ can do. `returning` is false:
 * MariaDB has `INSERT … RETURNING` and `DELETE … RETURNING` but no
 * `UPDATE … RETURNING`, MySQL none of them (the portable writes then write
 * and read the row back). No data-modifying `WITH`, no transactional DDL (each
 * DDL statement commits), no partial indexes, no arrays (lists are JSON).
 */
export const MYSQL_CAPABILITIES: EngineCapabilities = {
  returning: false,
  writableCte: false,
  transactionalDdl: false,
  skipLocked: true,
  partialIndexes: false,
  arrays: false,
  json: 'json',
};

/** A MySQL or MariaDB engine and the mysql2 pool under it (for the MySQL strategies of the subsystems). */
export interface MysqlEngine extends DatabaseEngine {
  readonly name: 'mysql' | 'mariadb';
  /** The pool. Statements sent on it directly skip the engine's checks (JSON values, big integers): prefer `run` and `connect`. */
  readonly pool: Pool;
  /** The database the URL names (named locks are the server's, so their names carry it). */
  readonly database: string;
}

/** The engine as `openMysql` makes it: the probe fills in the server's name and version. */
export type OpenedMysql = MysqlEngine & { name: MysqlEngine['name']; serverVersion: string };

/** Server-wide statement handles are limited (`max_prepared_stmt_count`, 16382 by default): each connection keeps at most this many. */
const PREPARED_PER_CONNECTION = 256;
/** How long `close()` waits at most (ms) for the connections to end. */
const END_WAIT_MS = 5000;
/** `lock(name)` waits at most this long (seconds; a year): MariaDB takes no "forever". */
const LOCK_WAIT_SECONDS = 31_536_000;

/** The pool's counts (mysql2 keeps them in fields it has had since node-mysql; no public accessor). */
interface PoolCounts {
  readonly _allConnections?: { readonly length: number };
  readonly _freeConnections?: { readonly length: number };
  readonly _connectionQueue?: { readonly length: number };
}

/**
 * Open a pool on `options.url` (no connection is made yet).
 * @returns the engine; its `name` is the URL's (`mariadb://` → `mariadb`, else `mysql`) until {@link probeMysql} reads the server's.
 * @throws {DatabaseUnreachableError} when the URL names no database or has a parameter bindery does not read.
 */
export function openMysql(options: MysqlOptions): OpenedMysql {
  const config = poolOptionsOf(options);
  const pool = mysql.createPool({ ...config, maxPreparedStatements: PREPARED_PER_CONNECTION });
  const counts = pool as unknown as PoolCounts;
  let closing: Promise<void> | undefined;
  // Sessions still being set up (a connection leaves the map once its settings ran).
  const sessions = new WeakMap<PoolConnection, Promise<void>>();
  const checkedOut = new WeakSet<PoolConnection>();
  pool.on('connection', (connection) => {
    // Without a listener a connection's error would end the process; the statement running on it fails with the same error.
    connection.on('error', (error: Error) => {
      if (closing === undefined && !checkedOut.has(connection)) options.onIdleError?.(error);
    });
    const setUp = setUpSession(connection);
    setUp.catch(() => {}); // awaited by acquire(); a statement sent on the raw pool runs after it either way
    sessions.set(connection, setUp);
  });

  let ended: Promise<void> | undefined;
  const source: ConnectionSource = {
    acquire: () => acquire(pool, counts, options.connectTimeoutMs, sessions, checkedOut),
    giveBack(connection, discard) {
      checkedOut.delete(connection);
      if (discard) connection.destroy();
      else connection.release();
    },
    end: () => (ended ??= endPool(pool)),
  };
  const engine: OpenedMysql = {
    name: new URL(options.url).protocol === 'mariadb:' ? 'mariadb' : 'mysql',
    serverVersion: '',
    capabilities: MYSQL_CAPABILITIES,
    sql: mysqlSql,
    placeholder: '?',
    dialect: new MysqlDialect({ pool: kyselyPool(source) }),
    url: options.url,
    pool,
    database: config.database,
    async run<R>(text: string, parameters: readonly unknown[] = [], runOptions?: RunOptions): Promise<StatementResult<R>> {
      const connection = await source.acquire().catch(rethrowUnavailable);
      try {
        const result = await send(connection, text, parameters, runOptions?.prepare === true);
        source.giveBack(connection, false);
        return resultOf<R>(result);
      } catch (error) {
        source.giveBack(connection, isConnectionFailure(error));
        throw asUnavailable(error);
      }
    },
    async connect() {
      const connection = await source.acquire().catch(rethrowUnavailable);
      return connectionOf(connection, {
        lockName: (name) => lockName(config.database, name),
        lockWaitSeconds: LOCK_WAIT_SECONDS,
        giveBack: (discard) => source.giveBack(connection, discard),
      });
    },
    classify: classifyMysqlError,
    async tableExists(name) {
      const [schema, table] = splitName(name);
      const { rows } = await engine.run(
        'SELECT 1 AS found FROM information_schema.tables WHERE table_schema = COALESCE(?, DATABASE()) AND table_name = ? LIMIT 1',
        [schema, table],
      );
      return rows.length > 0;
    },
    async readOnlyReason() {
      const { rows } = await engine.run<{ superReadOnly: number; readOnly: number; transactionReadOnly: number }>(
        engine.name === 'mariadb'
          ? 'SELECT 0 AS superReadOnly, @@GLOBAL.read_only AS readOnly, @@SESSION.tx_read_only AS transactionReadOnly'
          : 'SELECT @@GLOBAL.super_read_only AS superReadOnly, @@GLOBAL.read_only AS readOnly, @@SESSION.transaction_read_only AS transactionReadOnly',
      );
      const row = rows[0];
      if (Number(row?.superReadOnly)) return 'read-only (super_read_only = ON): writes are answered 503';
      if (Number(row?.readOnly)) return 'read-only (read_only = ON): writes are answered 503';
      if (Number(row?.transactionReadOnly)) return 'read-only (transaction_read_only = ON): writes are answered 503';
      return undefined;
    },
    poolStats: () => ({
      total: counts._allConnections?.length ?? 0,
      idle: counts._freeConnections?.length ?? 0,
      waiting: counts._connectionQueue?.length ?? 0,
      max: options.max,
    }),
    observe: (observer) => observeMysqlPool(pool, observer),
    close() {
      closing ??= source.end();
      return closing;
    },
  };
  return engine;
}

/** Run the session statements on a new connection (queued before anything else is sent on it). */
function setUpSession(connection: PoolConnection): Promise<void> {
  return new Promise((resolve, reject) => {
    let left = SESSION_STATEMENTS.length;
    for (const statement of SESSION_STATEMENTS) {
      connection.query(statement, (error: Error | null) => {
        if (error) reject(error);
        else if (--left === 0) resolve();
      });
    }
  });
}

/**
 * A connection of the pool with its session set up, waiting at most
 * `timeoutMs` when none is free (mysql2 would wait forever).
 * @throws mysql2's error; an error with code `POOL_TIMEOUT` (a lost connection, by kind) after the wait.
 */
function acquire(
  pool: Pool,
  counts: PoolCounts,
  timeoutMs: number,
  sessions: WeakMap<PoolConnection, Promise<void>>,
  checkedOut: WeakSet<PoolConnection>,
): Promise<PoolConnection> {
  return new Promise((resolve, reject) => {
    let waiting = true;
    const timer =
      (counts._freeConnections?.length ?? 0) > 0
        ? undefined
        : setTimeout(() => {
            waiting = false;
            reject(Object.assign(new Error(`timeout exceeded when waiting for a connection (${timeoutMs} ms)`), { code: 'POOL_TIMEOUT' }));
          }, timeoutMs);
    pool.getConnection((error, connection) => {
      if (timer !== undefined) clearTimeout(timer);
      if (!waiting) {
        if (!error) connection.release();
        return;
      }
      if (error) return reject(error);
      const setUp = sessions.get(connection);
      if (setUp === undefined) {
        checkedOut.add(connection);
        return resolve(connection);
      }
      setUp.then(
        () => {
          sessions.delete(connection);
          checkedOut.add(connection);
          resolve(connection);
        },
        (failure: unknown) => {
          connection.destroy();
          reject(failure);
        },
      );
    });
  });
}

/** End the pool; resolves once its connections ended, or after {@link END_WAIT_MS}. Never rejects. */
function endPool(pool: Pool): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, END_WAIT_MS);
    timer.unref();
    pool.end(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** A lock name is the server's, not the database's, and at most 64 characters: it carries the database, hashed when long. */
function lockName(database: string, name: string): string {
  const full = `${database}/${name}`;
  if (full.length <= 64) return full;
  return `bindery/${createHash('sha256').update(full).digest('base64url')}`;
}

/** `schema.table` or `table` (backquotes dropped). */
function splitName(name: string): [string | null, string] {
  const parts = name.split('.').map((part) => part.replace(/^`(.*)`$/, '$1'));
  return parts.length >= 2 ? [parts[0]!, parts.slice(1).join('.')] : [null, parts[0]!];
}

/**
 * Read the server's engine and version, and check it (the first statement of a verified connect).
 * @throws {DatabaseVersionError} {DatabaseCharsetError} {DatabaseSqlModeError} when bindery cannot use the server (`server-checks.ts`).
 * @throws mysql2's error when the server does not answer.
 */
export async function probeMysql(engine: OpenedMysql, displayUrl: string): Promise<void> {
  let rows: ProbedSettings[];
  try {
    ({ rows } = await engine.run<ProbedSettings>(PROBE_STATEMENT));
  } catch (error) {
    throw error instanceof DatabaseUnavailableError ? error.cause : error;
  }
  const settings = rows[0]!;
  engine.serverVersion = settings.version;
  engine.name = checkServer(settings, displayUrl).name;
}
