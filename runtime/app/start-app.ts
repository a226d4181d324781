/**
 * Booting and serving an app (docs/boot.md "Boot sequence").
 *
 * settings → logger → database (embedded when `DATABASE_URL` is unset) →
 * migrations (when asked) → setup steps → `createHttpServer` → listen on
 * `HTTP_ADDR` → print the URL. Shutdown (signal or `close()`): the HTTP
 * server closes gracefully (in-flight requests finish; idle keep-alive
 * connections close), then the setup steps' close hooks run, the pool
 * ends, and the embedded PostgreSQL stops.
 */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { CoreSettings } from '../config/core-settings.js';
import { loadEnvironment } from '../config/env-file.js';
import type { Env } from '../config/setting.js';
import type { Database } from '../db/connect.js';
import type { Services } from '../http/context.js';
import { createHttpServer } from '../http/server.js';
import type { HttpServerOptions } from '../http/server-options.js';
import { resolvePolicy } from '../config/content-security-policy.js';
import type { App } from './define-app.js';
import { hostPort, listen } from './listen.js';
import type { LogDestination } from './logger.js';
import { openApp, type OpenedApp } from './open-app.js';
import { createReadiness } from './readiness.js';
import { runMigrations } from './run-migrations.js';
import { runSetupSteps, type SetupResult } from './run-setup.js';
import { onShutdownSignals } from './shutdown.js';
import type { AnyKysely } from '../db/any-kysely.js';

/** Options of {@link startApp}. */
export interface StartAppOptions {
  /** Environment variables (default: `process.env` over `<root>/.env`). */
  readonly env?: Env;
  /** Apply pending migrations before serving (what `bindery start` does). Default false: pending migrations are reported and `/health/ready` says not ready. */
  readonly migrate?: boolean;
  /** Shut down gracefully on SIGINT, SIGTERM and SIGHUP (default true). */
  readonly handleSignals?: boolean;
  /** Progress text (default: stdout). */
  readonly out?: (text: string) => void;
  /** Where the app's log lines go (default: stdout), in the `LOG_FORMAT` (docs/observability.md "Logs"). */
  readonly logDestination?: LogDestination;
  /**
   * Awaited after everything is set up and right before listening, e.g. to
   * wait until the port is free (`bindery dev` prepares the next app
   * process while the previous one still serves). A rejection stops what
   * was started and is rethrown.
   */
  readonly beforeListen?: () => Promise<void>;
  /**
   * The app's clock, milliseconds since the epoch (default `Date.now`): the
   * setup steps' `ctx.now`, which throttles, expiries and caches read
   * (docs/testing.md#time).
   */
  readonly now?: () => number;
}

/** A served app. */
export interface RunningApp {
  /** Base URL to reach it from this machine, e.g. `http://127.0.0.1:3000` (a wildcard address shows as 127.0.0.1). */
  readonly url: string;
  /** The address bound (port resolved when `HTTP_ADDR` asked for 0). */
  readonly address: { readonly host: string; readonly port: number };
  readonly server: FastifyInstance;
  /** Kysely over the app's database. */
  readonly db: AnyKysely;
  readonly database: Database;
  readonly settings: CoreSettings;
  /** The services handlers see as `ctx.services` (`db`, and what the setup steps added: `queue`, …). */
  readonly services: Readonly<Record<string, unknown>>;
  /** Shut down gracefully (see the module doc). Idempotent. */
  close(): Promise<void>;
  /** Resolves once shut down, whoever started it (signal or `close()`). */
  readonly closed: Promise<void>;
}

const WILDCARD = new Set(['0.0.0.0', '::', '']);

/**
 * Boot and serve `app`.
 *
 * @returns once listening; `closed` resolves after shutdown.
 * @throws {SettingsError} listing every bad setting (nothing started).
 * @throws {DatabaseUnreachableError} | {EmbeddedPostgresError} when the database cannot be opened.
 * @throws {MigrationChangedError} | {MigrationFailedError} when `migrate` is on and migrating fails.
 * @throws {ListenError} when `HTTP_ADDR` (or `0.0.0.0:$PORT`) cannot be bound, naming the setting.
 * Whatever fails, what was started is stopped before the error is thrown.
 * @example
 *   const running = await startApp(app, { migrate: true });
 *   await running.closed; // after SIGTERM
 */
export async function startApp(app: App, options: StartAppOptions = {}): Promise<RunningApp> {
  const out =
    options.out ??
    ((text: string) => {
      process.stdout.write(text);
    });
  const env = options.env ?? (await loadEnvironment(app.root));
  const opened = await openApp(app, env, out, options.logDestination === undefined ? {} : { logDestination: options.logDestination });
  const core = opened.settings.core;
  let closeHooks: Array<() => void | Promise<void>> = [];
  const runCloseHooks = async () => {
    for (const hook of closeHooks)
      await Promise.resolve(hook()).catch((error: unknown) => opened.log.error({ err: error }, 'a close hook failed'));
  };
  let server: FastifyInstance | undefined;
  let services: Record<string, unknown> = {};
  try {
    await migrateOrReport(opened, options.migrate === true, out);
    const setup = await runSetupSteps(opened, options.now === undefined ? {} : { now: options.now });
    closeHooks = setup.closeHooks;
    services = setup.services;
    server = await createHttpServer(httpServerOptions(app, opened, setup));
    await options.beforeListen?.();
    await listen(server, core.HTTP_ADDR, opened.settings.given, core.PORT);
  } catch (error) {
    await server?.close().catch(() => {});
    await runCloseHooks();
    await opened.close().catch(() => {});
    throw error;
  }
  const bound = server.server.address() as AddressInfo;
  const wildcard = WILDCARD.has(core.HTTP_ADDR.host);
  const url = `http://${wildcard ? hostPort('127.0.0.1', bound.port) : hostPort(core.HTTP_ADDR.host, bound.port)}`;
  out(`Serving ${app.name} at ${url}${wildcard ? ` (listening on all interfaces, ${hostPort(core.HTTP_ADDR.host, bound.port)})` : ''}\n`);

  let resolveClosed!: () => void;
  const closed = new Promise<void>((r) => {
    resolveClosed = r;
  });
  let closing: Promise<void> | undefined;
  let removeSignals = () => {};
  const srv = server;
  const close = () => {
    closing ??= (async () => {
      const graceMs = core.HTTP_REQUEST_TIMEOUT + 5000;
      const timer = setTimeout(() => {
        out(`In-flight requests did not finish within ${graceMs} ms; closing their connections.\n`);
        srv.server.closeAllConnections();
      }, graceMs);
      // Node closes only the connections idle when close() starts; a keep-alive
      // connection whose in-flight request finishes later would stay open until
      // its keep-alive timeout. Reap those as they become idle.
      const reaper = setInterval(() => srv.server.closeIdleConnections(), 50);
      try {
        await srv.close();
      } finally {
        clearInterval(reaper);
        clearTimeout(timer);
        removeSignals();
        await runCloseHooks();
        await opened.close().catch((error: unknown) => opened.log.error({ err: error }, 'closing the database failed'));
        resolveClosed();
      }
    })();
    return closing;
  };
  if (options.handleSignals ?? true) {
    removeSignals = onShutdownSignals((signal) => {
      out(`Received ${signal}: shutting down, letting in-flight requests finish …\n`);
      void close().then(
        () => out('Stopped.\n'),
        (error: unknown) => out(`Shutdown failed: ${(error as Error).message}\n`),
      );
    }, out);
  }
  return {
    url,
    address: { host: core.HTTP_ADDR.host, port: bound.port },
    server,
    db: opened.db.database.db,
    database: opened.db.database,
    settings: core,
    services,
    close,
    closed,
  };
}

/** Apply the pending migrations (`migrate`), or say how many are pending. */
async function migrateOrReport(opened: OpenedApp, migrate: boolean, out: (text: string) => void): Promise<void> {
  if (migrate) {
    await runMigrations(opened.migrator, out);
    return;
  }
  const pending = await opened.migrator.pending();
  if (pending.length > 0) {
    out(
      `${pending.length} migration${pending.length === 1 ? ' is' : 's are'} pending; run "bindery migrate" (GET /health/ready reports not ready until then).\n`,
    );
  }
}

/** The HTTP server's options: the setup steps' routes, handlers and services, and the core settings. */
function httpServerOptions(app: App, opened: OpenedApp, setup: SetupResult): HttpServerOptions {
  const core = opened.settings.core;
  return {
    routes: setup.routes,
    handlers: setup.handlers,
    middleware: setup.middleware,
    services: setup.services as unknown as Services,
    environment: core.APP_ENV,
    debug: core.APP_DEBUG,
    maxBodyBytes: core.HTTP_MAX_BODY,
    maxJsonDepth: core.HTTP_MAX_JSON_DEPTH,
    maxJsonKeys: core.HTTP_MAX_JSON_KEYS,
    trustProxy: core.HTTP_TRUST_PROXY,
    ...(core.CORS_ORIGINS === undefined ? {} : { corsOrigins: core.CORS_ORIGINS }),
    requestTimeoutMs: core.HTTP_REQUEST_TIMEOUT,
    ...(core.HTTP_BODY_TIMEOUT !== undefined ? { bodyTimeoutMs: core.HTTP_BODY_TIMEOUT } : {}),
    headersTimeoutMs: core.HTTP_HEADERS_TIMEOUT,
    keepAliveTimeoutMs: core.HTTP_KEEP_ALIVE_TIMEOUT,
    contentSecurityPolicy: resolvePolicy(core.HTTP_CSP, app.contentSecurityPolicy),
    ...(app.viewsDir ? { viewsDir: app.viewsDir } : {}),
    executionContext: setup.executionContext,
    ...(setup.requestObserver === undefined ? {} : { observer: setup.requestObserver }),
    readiness: createReadiness(opened.db.database, opened.migrator, setup.readinessChecks),
    logger: opened.log,
  };
}
