/**
 * Options of the HTTP server factory `createHttpServer` (runtime/http/server.ts).
 *
 * The boot code (runtime/app) builds these from the validated settings; the
 * HTTP layer never reads environment variables itself. Units are explicit:
 * bytes and milliseconds.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { RouteTable } from '../routing/route-table.js';
import type { Middleware } from './handler.js';
import type { Services } from './context.js';
import type { AnyRouteHandler } from './handler.js';
import type { RequestObserver } from './request-observer.js';

/** `APP_ENV`: decides Secure cookies, HSTS and whether debug pages are allowed. */
export type AppEnvironment = 'development' | 'testing' | 'production';

/** Result of the readiness probe behind `GET /health/ready`. */
export interface ReadinessReport {
  readonly ok: boolean;
  /** One line per check, e.g. `{ database: 'ok', migrations: '2 pending' }`. */
  readonly checks: Readonly<Record<string, string>>;
}

export interface HttpServerOptions {
  /** The generated route table (`generated/routes.ts`), plus plugin routes. */
  readonly routes: RouteTable;
  /** One handler per route name. A route without a handler, or a handler without a route, fails the boot. */
  readonly handlers: Readonly<Record<string, AnyRouteHandler>>;
  /** Middleware by the names used in the YAML `groups:`; a name used by a route but missing here fails the boot. */
  readonly middleware?: Readonly<Record<string, Middleware>>;
  /** Services handed to handlers as `ctx.services` (`db`, …). */
  readonly services: Services;
  /** `APP_ENV`. */
  readonly environment: AppEnvironment;
  /** `APP_DEBUG`: error pages show the error chain, stack and request details (never in production). */
  readonly debug: boolean;
  /**
   * `CORS_ORIGINS`: the origins allowed by every route whose group declares
   * `cors:`, replacing the YAML's lists (`['*']` any, `[]` none; docs/http.md
   * "CORS"). Absent: the YAML's lists.
   */
  readonly corsOrigins?: readonly string[];
  /** `HTTP_TRUST_PROXY`: which proxies' `X-Forwarded-*` headers to believe (Fastify's `trustProxy`). Default false. */
  readonly trustProxy?: boolean | number | readonly string[];
  /**
   * `HTTP_MAX_BODY` in bytes (default 1 MiB = 1048576): the body limit of
   * a route without its own `bodyLimit`, and the most its input may imply
   * (docs/http.md "Body limits"); larger bodies get 413.
   */
  readonly maxBodyBytes: number;
  /** `HTTP_MAX_JSON_DEPTH` (default 32): a JSON body nested deeper gets 400, before it is parsed. */
  readonly maxJsonDepth?: number;
  /** `HTTP_MAX_JSON_KEYS` (default 10000): a JSON body with more keys and items (a form with more fields) gets 413, before it is parsed. */
  readonly maxJsonKeys?: number;
  /** `HTTP_REQUEST_TIMEOUT` in milliseconds (default 30000); a handler still running then gets 503. */
  readonly requestTimeoutMs: number;
  /**
   * `HTTP_BODY_TIMEOUT` in milliseconds (default: `requestTimeoutMs`): the
   * whole request — headers and body — must arrive within it, or the client
   * gets 408 and the connection is closed. Runs before any route code, so a
   * client trickling a body cannot hold a connection.
   */
  readonly bodyTimeoutMs?: number;
  /**
   * `HTTP_HEADERS_TIMEOUT` in milliseconds (default 10000, at most the body
   * timeout): the request line and headers must arrive within it, or the
   * client gets 408 and the connection is closed.
   */
  readonly headersTimeoutMs?: number;
  /** `HTTP_KEEP_ALIVE_TIMEOUT` in milliseconds (default 5000): an idle keep-alive connection is closed after it. */
  readonly keepAliveTimeoutMs?: number;
  /** Folder of the app's views (`app/views`), absolute path. Pages render `<view>.eta` from here. */
  readonly viewsDir?: string;
  /**
   * The `Content-Security-Policy` of every response; `null` sends none;
   * unset sends the default policy (docs/http.md "Content-Security-Policy").
   */
  readonly contentSecurityPolicy?: string | null;
  /** Readiness probe for `GET /health/ready` (database reachable, no pending migrations). Absent: always ready. */
  readonly readiness?: () => Promise<ReadinessReport>;
  /**
   * Run every request inside its execution context (runtime/context), so
   * code deep in the call stack — the audit log, jobs queued by the request —
   * learns the actor, the route and the request ID (docs/spec.md 5.8). Set by the
   * setup steps that need it (audit, jobs). Default false: on Node 20,
   * `AsyncLocalStorage` slows every request by about a fifth (promise hooks).
   */
  readonly executionContext?: boolean;
  /** Logger (pino). Absent: a pino logger at `info` writing JSON lines to stdout. */
  readonly logger?: FastifyBaseLogger;
  /**
   * What observes the requests (traces, metrics, the access log, the
   * development dashboard; set by the `observability()` step). Absent: no
   * hook at all, the request path costs nothing more (docs/observability.md).
   */
  readonly observer?: RequestObserver;
}
