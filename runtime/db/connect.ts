/**
 * Connecting to PostgreSQL: a pg `Pool` with bindery's type parsers and a
 * Kysely instance over it (docs/database.md).
 */
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import { registerPool } from './compiled-query.js';
import { DatabaseUnreachableError } from './errors.js';
import { redactUrl } from './redact-url.js';
import { binderyTypes } from './type-parsers.js';
import { isConnectionFailure, rethrowUnavailable } from './unavailable.js';
import type { UntypedTables } from './any-kysely.js';

/** An open database: Kysely for queries, the pool for raw access (migrator, jobs). */
export interface Database<DB = UntypedTables> {
  /** Kysely over {@link pool}; `DB` is the generated `Database` interface of the app. */
  readonly db: Kysely<DB>;
  /** The pg pool (int8 → number, see `type-parsers.ts`). */
  readonly pool: pg.Pool;
  /** The connection URL with its password hidden, for messages. */
  readonly displayUrl: string;
  /**
   * Run `select 1`.
   * @throws the pg error when the database does not answer.
   */
  ping(): Promise<void>;
  /** End the pool, whether or not Kysely ran a query (waits for checked-out clients to be released). Idempotent. */
  close(): Promise<void>;
}

/** Options of {@link connectDatabase}. */
export interface ConnectDatabaseOptions {
  /** `postgres://user:password@host:port/database`. */
  readonly url: string;
  /** Pool size (default 10). */
  readonly max?: number;
  /** `application_name` shown in `pg_stat_activity` (default `bindery`). */
  readonly applicationName?: string;
  /** Check the connection with `select 1` before returning (default true). */
  readonly verify?: boolean;
  /** Milliseconds to wait for a connection (default 10000). */
  readonly connectTimeoutMs?: number;
  /** What to do, ending the message of the {@link DatabaseUnreachableError} (default {@link UNREACHABLE_ADVICE}). */
  readonly unreachableAdvice?: string;
  /**
   * Errors of idle pooled connections (e.g. the server restarted), until
   * `close()` is called: connections failing while the pool ends them are
   * not lost. Default: ignored; the pool replaces the client.
   */
  readonly onIdleError?: (error: Error) => void;
}

/** The advice of a {@link DatabaseUnreachableError} by default. */
const UNREACHABLE_ADVICE =
  'Check that the PostgreSQL server is up and reachable from here, and the URL (host, port, user, password, database).';

/**
 * Open a pool and Kysely on `url`.
 *
 * @returns the open {@link Database}; close it with `close()`.
 * @throws {DatabaseUnreachableError} when `verify` is on and `select 1` fails (the message shows the URL without its password and pg's reason).
 * @example
 *   const database = await connectDatabase<DB>({ url: process.env.DATABASE_URL! });
 *   const notes = await database.db.selectFrom('notes').selectAll().execute();
 *   await database.close();
 */
export async function connectDatabase<DB = UntypedTables>(options: ConnectDatabaseOptions): Promise<Database<DB>> {
  const displayUrl = redactUrl(options.url);
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.max ?? 10,
    application_name: options.applicationName ?? 'bindery',
    connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
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
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: unavailableAware(pool) }) });
  registerPool(db, pool);
  const database: Database<DB> = {
    db,
    pool,
    displayUrl,
    async ping() {
      await pool.query('select 1');
    },
    close() {
      // Kysely ends the pool only when it ran a query itself; the migrator,
      // the jobs and `ping` use the pool directly, so end it here as well:
      // idle connections left open would keep the process alive. pg's end()
      // resolves once it has asked each connection to end, before they have:
      // wait for them too, so a server stopped next (the embedded one) has no
      // session of ours left to terminate.
      closing ??= db
        .destroy()
        .then(() => (pool.ending ? undefined : pool.end()))
        .then(() => connectionsEnded(open));
      return closing;
    },
  };
  if (options.verify ?? true) {
    try {
      await database.ping();
    } catch (error) {
      await database.close().catch(() => {});
      const reason = (error as Error).message || String(error);
      throw DatabaseUnreachableError.from(
        { url: displayUrl, reason, advice: options.unreachableAdvice ?? UNREACHABLE_ADVICE },
        { cause: error },
      );
    }
  }
  return database;
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

/**
 * The pool as Kysely sees it: connection failures (lost connection, connect
 * timeout, server down) reject with a 503 `DatabaseUnavailableError` whose
 * cause is pg's error; query errors pass unchanged. Each pg client is wrapped
 * once (Kysely keeps its connection object per client).
 */
function unavailableAware(pool: pg.Pool): PostgresPool {
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
    end: () => pool.end(),
  };
}
