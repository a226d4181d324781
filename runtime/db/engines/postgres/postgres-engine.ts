/**
 * The PostgreSQL engine (docs/database.md "Engines"): a pg `Pool` with
 * bindery's type parsers, Kysely's `PostgresDialect` over it, and the
 * seam's answers — statements on the pool (named prepared statements on the
 * hot paths), connections with advisory locks, errors by kind, the pool's
 * figures, readiness and statement observation.
 */
import { createHash } from 'node:crypto';
import { PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import type { DatabaseEngine, EngineCapabilities, EngineConnection, RunOptions, StatementResult } from '../../engine.js';
import { asUnavailable, isConnectionFailure, rethrowUnavailable } from '../../unavailable.js';
import { classifyPostgresError } from './errors.js';
import { observePostgresPool } from './observe-queries.js';
import { postgresSql } from './sql.js';
import { binderyTypes } from './type-parsers.js';

/** What PostgreSQL can do. */
export const POSTGRES_CAPABILITIES: EngineCapabilities = {
  returning: true,
  writableCte: true,
  transactionalDdl: true,
  skipLocked: true,
  partialIndexes: true,
  arrays: true,
  json: 'jsonb',
};

/** Options of {@link openPostgres}. */
export interface PostgresOptions {
  readonly url: string;
  readonly max: number;
  readonly applicationName: string;
  readonly connectTimeoutMs: number;
  /** Errors of idle pooled connections (not reported once `close()` has begun). */
  readonly onIdleError?: (error: Error) => void;
}

/** A PostgreSQL engine and the pool under it (for the PostgreSQL strategies of the subsystems: `postgresPoolOf`). */
export interface PostgresEngine extends DatabaseEngine {
  readonly name: 'postgres';
  readonly pool: pg.Pool;
}

/**
 * Open a pool on `options.url` (no connection is made yet).
 * @returns the engine; `serverVersion` is filled by {@link probePostgres}.
 */
export function openPostgres(options: PostgresOptions): PostgresEngine & { serverVersion: string } {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.max,
    application_name: options.applicationName,
    connectionTimeoutMillis: options.connectTimeoutMs,
    types: binderyTypes,
  });
  let closing: Promise<void> | undefined;
  pool.on('error', (error) => {
    if (closing === undefined) options.onIdleError?.(error);
  });
  // Connections not yet ended: close() waits for them.
  const open = new Set<pg.PoolClient>();
  pool.on('connect', (client) => {
    // A checked-out client whose backend dies emits `error`; without a listener
    // Node ends the process (the pool's own listener covers idle clients only).
    // The query running on it rejects with the same error, so nothing is lost.
    client.on('error', ignoreClientError);
    open.add(client);
    client.once('end', () => open.delete(client));
  });
  // Ended once, whoever asks first: Kysely's destroy (when it ran a query) or close().
  let ended: Promise<void> | undefined;
  const endPool = () => (ended ??= pool.end());
  const dialect = new PostgresDialect({ pool: unavailableAware(pool, endPool) });
  return {
    name: 'postgres',
    serverVersion: '',
    capabilities: POSTGRES_CAPABILITIES,
    sql: postgresSql,
    placeholder: '$n',
    dialect,
    url: options.url,
    pool,
    async run<R>(text: string, parameters: readonly unknown[] = [], runOptions?: RunOptions): Promise<StatementResult<R>> {
      try {
        // Text and values apart when not prepared: pg copies a config object per query.
        const result =
          runOptions?.prepare === true
            ? await pool.query(queryConfig(text, parameters, runOptions))
            : await pool.query(text, parameters as unknown[]);
        return resultOf<R>(result);
      } catch (error) {
        throw asUnavailable(error);
      }
    },
    async connect() {
      const client = await pool.connect().catch(rethrowUnavailable);
      return connectionOf(client);
    },
    classify: classifyPostgresError,
    async tableExists(name) {
      const r = await pool.query<{ t: string | null }>('select to_regclass($1)::text as t', [name]).catch(rethrowUnavailable);
      return r.rows[0]?.t != null;
    },
    async readOnlyReason() {
      const { rows } = await pool
        .query<{ standby: boolean; read_only: string }>(
          "select pg_is_in_recovery() as standby, current_setting('default_transaction_read_only') as read_only",
        )
        .catch(rethrowUnavailable);
      const row = rows[0];
      if (row?.standby) return 'read-only (a standby in recovery): writes are answered 503';
      if (row?.read_only === 'on') return 'read-only (default_transaction_read_only = on): writes are answered 503';
      return undefined;
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max ?? 10 }),
    observe: (observer) => observePostgresPool(pool, observer),
    close() {
      // pg's end() resolves once it has asked each connection to end, before
      // they have: wait for them too, so a server stopped next (the embedded
      // one) has no session of ours left to terminate.
      closing ??= endPool().then(() => connectionsEnded(open));
      return closing;
    },
  };
}

/**
 * Read the server's version (the first statement of a verified connect).
 * @throws the pg error when the server does not answer.
 */
export async function probePostgres(engine: PostgresEngine & { serverVersion: string }): Promise<void> {
  const { rows } = await engine.pool.query<{ version: string }>("select current_setting('server_version') as version");
  engine.serverVersion = rows[0]?.version ?? '';
}

function ignoreClientError(): void {}

/** How long {@link connectionsEnded} waits at most (ms): a connection that never ends does not hold up shutdown. */
const END_WAIT_MS = 5000;

/** Resolves once every client in `open` has ended (or after {@link END_WAIT_MS}). Never rejects. */
async function connectionsEnded(open: ReadonlySet<pg.PoolClient>): Promise<void> {
  if (open.size === 0) return;
  let timer: NodeJS.Timeout | undefined;
  const ended = Promise.all([...open].map((client) => new Promise<void>((resolve) => client.once('end', () => resolve()))));
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, END_WAIT_MS);
    timer.unref();
  });
  await Promise.race([ended, late]);
  clearTimeout(timer);
}

const NAMES = new Map<string, string>();
const MAX_NAMES = 2000;

/** A stable prepared-statement name for a statement text. */
function statementName(text: string): string {
  let name = NAMES.get(text);
  if (name === undefined) {
    name = `bindery_${createHash('sha1').update(text).digest('base64url')}`;
    if (NAMES.size >= MAX_NAMES) NAMES.clear();
    NAMES.set(text, name);
  }
  return name;
}

function queryConfig(text: string, parameters: readonly unknown[], options: RunOptions | undefined): pg.QueryConfig {
  const values = parameters as unknown[];
  return options?.prepare === true ? { name: statementName(text), text, values } : { text, values };
}

/** pg's result; a text of several statements (no parameters) gives one result per statement: the last one counts. */
function resultOf<R>(result: pg.QueryResult | pg.QueryResult[]): StatementResult<R> {
  const last = Array.isArray(result) ? result[result.length - 1] : result;
  if (last === undefined) return { rows: [], rowCount: 0 };
  return { rows: last.rows as R[], rowCount: last.rowCount ?? last.rows.length };
}

/**
 * An advisory lock's key: a name of exactly 8 bytes is its own key (the
 * migrator's `bindery!`, as it always was), any other the first 8 bytes of
 * its SHA-256.
 */
function lockKey(name: string): string {
  const bytes = Buffer.from(name);
  const key = bytes.length === 8 ? bytes : createHash('sha256').update(bytes).digest();
  return key.readBigInt64BE().toString();
}

/** One held client as a seam connection: statements, session-level advisory locks, release. */
function connectionOf(client: pg.PoolClient): EngineConnection {
  return {
    async run<R>(text: string, parameters: readonly unknown[] = [], options?: RunOptions) {
      return resultOf<R>(await client.query(queryConfig(text, parameters, options)));
    },
    async tryLock(name) {
      const got = await client.query<{ ok: boolean }>('select pg_try_advisory_lock($1::bigint) as ok', [lockKey(name)]);
      return got.rows[0]?.ok === true;
    },
    async lock(name) {
      await client.query('select pg_advisory_lock($1::bigint)', [lockKey(name)]);
    },
    async unlock(name) {
      await client.query('select pg_advisory_unlock($1::bigint)', [lockKey(name)]);
    },
    release: (discard) => client.release(discard),
  };
}

/**
 * The pool as Kysely sees it: connection failures (lost connection, connect
 * timeout, server down) reject with a 503 `DatabaseUnavailableError` whose
 * cause is pg's error; query errors pass unchanged. Each pg client is wrapped
 * once (Kysely keeps its connection object per client).
 */
function unavailableAware(pool: pg.Pool, endPool: () => Promise<void>): PostgresPool {
  const wrapped = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  // Clients whose connection failed: released with the error, so the pool
  // destroys them instead of handing them out again. (A terminated backend's
  // error reaches the query before the socket closes; released without the
  // error, the client would look healthy and fail the next query too.)
  const broken = new WeakSet<pg.PoolClient>();
  return {
    async connect() {
      const client = await pool.connect().catch(rethrowUnavailable);
      let facade = wrapped.get(client);
      if (facade === undefined) {
        facade = {
          query: ((text: unknown, parameters?: unknown) => {
            // biome-ignore lint/suspicious/noExplicitAny: pg types a submittable (cursor) query by a separate overload; the facade forwards whatever Kysely passed, unchanged.
            if (typeof text !== 'string') return client.query(text as any); // a cursor (streaming): returned as is
            return client.query(text, parameters as unknown[]).catch((error: unknown) => {
              if (isConnectionFailure(error)) broken.add(client);
              return rethrowUnavailable(error);
            });
          }) as PostgresPoolClient['query'],
          release: () => client.release(broken.has(client) || undefined),
        };
        wrapped.set(client, facade);
      }
      return facade;
    },
    end: endPool,
  };
}
