/**
 * The HTTP server: the route table on Fastify (docs/spec.md 4, 4.5, 7; ARCHITECTURE.md "Request flow").
 */
import { createServer } from 'node:http';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions, type RouteOptions } from 'fastify';
import { BinderyError } from '../errors/bindery-error.js';
import { HttpError } from '../errors/http-error.js';
import { malformedBody } from '../binding/body-errors.js';
import { registerBodyParsers } from '../binding/body-parsers.js';
import { DEFAULT_MAX_JSON_DEPTH, DEFAULT_MAX_JSON_KEYS } from '../binding/json-limits.js';
import { memoryReceiver, storageReceiver } from '../binding/file-receiver.js';
import { compileUploadPlan } from '../binding/upload-plan.js';
import { Storage } from '../storage/storage.js';
import { UrlBuilder } from '../results/url-builder.js';
import { createViewRenderer } from '../views/view-renderer.js';
import { BootProblems, checkRouteTable } from './boot-checks.js';
import { compileBeforeBody } from './before-body.js';
import { routeBodyLimit, type BodyLimit } from './body-limit.js';
import { answerShuttingDown, clientErrorHandler } from './client-errors.js';
import { Deadlines } from './deadlines.js';
import { sendError } from './error-response.js';
import { fromFastifyError } from './fastify-errors.js';
import type { Middleware } from './handler.js';
import { registerHealthRoutes, HEALTH_PATHS } from './health.js';
import { MethodOverride } from './method-override.js';
import { notFoundHandler } from './not-found.js';
import { answerTimeout, compileRoutePipeline, type FastifyRouteHandler, type PipelineEnv } from './pipeline.js';
import type { HttpRequestContext } from './request-context.js';
import { requestIdFor } from './request-id.js';
import { observeRequests } from './request-observer.js';
import { fastifyPath, MethodIndex } from './route-paths.js';
import { securityHeaders, StandardHeaders } from './security-headers.js';
import type { HttpServerOptions } from './server-options.js';
import { setServerLogger } from './request-log.js';
import { pino } from 'pino';
import { withPasswordConfirmation } from './route-password-confirmation.js';
import { withRateLimit } from './route-rate-limit.js';
import type { RouteDefinition } from '../routing/route-table.js';
import { registerCorsRoutes, withCorsOrigins } from './cors.js';
import type { I18n } from '../i18n/translator.js';
import { provideI18n } from './request-i18n.js';

/**
 * Build the HTTP server of an app: a ready, not yet listening Fastify
 * instance serving every route of `options.routes` (call `listen` on it).
 *
 * At boot, before anything is served, it refuses `debug` in production,
 * checks that every route has a handler, every handler a route, every
 * middleware name is provided, paths and path parameters agree, and rules
 * and field types are known — all problems are reported together, each
 * naming the route and its schema `origin`.
 *
 * Per request: request ID (`X-Request-ID`) and security headers on every
 * response; method override (`_method`) before routing; the route's
 * middleware, binding (body, then query/header/path; 415/413/400), rules
 * (422), the handler's own `validate`, the handler and its result; errors as
 * problem details or HTML pages; `HTTP_REQUEST_TIMEOUT` → 503; 404/405 with
 * `Allow`; `GET /health/live` and `GET /health/ready`. See docs/http.md.
 *
 * `app.inject()` skips the method override (it runs in the HTTP server's
 * request listener); everything else behaves the same.
 *
 * @param given see {@link HttpServerOptions}; sizes in bytes, times in milliseconds.
 * @returns the Fastify instance after `ready()`.
 * @throws {SettingsError} `BINDERY_SETTING_INVALID` for `corsOrigins` `*` with a CORS group that allows credentials.
 * @throws {BinderyError} `BINDERY_DEBUG_IN_PRODUCTION`, `BINDERY_ROUTE_WITHOUT_HANDLER`, `BINDERY_HANDLER_WITHOUT_ROUTE`, `BINDERY_MIDDLEWARE_MISSING`, `BINDERY_ROUTE_INVALID`, `BINDERY_VIEWS_NOT_CONFIGURED` (several problems: the code of the first, all listed in the message).
 * @example
 * const app = await createHttpServer({ routes, handlers, services: { db }, environment: 'development', debug: false, maxBodyBytes: 10 * 1024 * 1024, requestTimeoutMs: 30_000 });
 * await app.listen({ host: '127.0.0.1', port: 3000 });
 */
export async function createHttpServer(given: HttpServerOptions): Promise<FastifyInstance> {
  checkServerOptions(given);
  const options: HttpServerOptions = { ...given, routes: withCorsOrigins(given.routes, given.corsOrigins) };
  const env = pipelineEnv(options);
  const { headers, deadlines } = env;
  const pipelines = compilePipelines(options, env);
  const { app, serverLog } = createFastify(options, headers);
  // Fastify gets no logger (it would cost every request); bindery logs through
  // the app's logger with a per-request child made on demand (request-log.ts).
  setServerLogger(app.server, serverLog);
  if (deadlines !== null) app.addHook('onClose', async () => deadlines.stop());
  const i18n = (options.services as { i18n?: I18n }).i18n;
  if (i18n !== undefined) provideI18n(app, i18n);
  if (options.observer !== undefined) observeRequests(app, options.observer, options.routes);
  const storage = (options.services as { storage?: unknown }).storage;
  registerBodyParsers(
    app,
    options.maxBodyBytes,
    { maxDepth: options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH, maxKeys: options.maxJsonKeys ?? DEFAULT_MAX_JSON_KEYS },
    storage instanceof Storage ? storageReceiver(storage) : memoryReceiver,
  );
  const bodyLimits = new Map<string, BodyLimit>(options.routes.map((r) => [r.name, routeBodyLimit(r, options.maxBodyBytes)]));
  setErrorHandler(app, options, headers, bodyLimits);

  const methods = new MethodIndex();
  for (const path of HEALTH_PATHS) methods.add(path, 'GET');
  for (const route of options.routes) methods.add(route.path, route.method);
  app.setNotFoundHandler(notFoundHandler(methods, headers, options.debug));
  registerHealthRoutes(app, headers, options.readiness);
  registerRoutes(app, options, headers, bodyLimits, pipelines);
  await app.ready();
  return app;
}

/** Refuse `debug` in production and a body limit that is not a positive integer. */
function checkServerOptions(options: HttpServerOptions): void {
  if (options.debug && options.environment === 'production') {
    throw new BinderyError(
      'BINDERY_DEBUG_IN_PRODUCTION',
      'APP_DEBUG=true is refused when APP_ENV=production: debug pages show stacks and request details to every visitor. Set APP_DEBUG=false.',
    );
  }
  if (!Number.isSafeInteger(options.maxBodyBytes) || options.maxBodyBytes <= 0) {
    throw new RangeError(`maxBodyBytes must be a positive integer number of bytes, got ${String(options.maxBodyBytes)}`);
  }
}

/** What every route's pipeline shares: services, URLs, standard headers, deadlines, views. */
function pipelineEnv(options: HttpServerOptions): PipelineEnv & { readonly headers: StandardHeaders } {
  const headers = new StandardHeaders(
    options.environment,
    options.contentSecurityPolicy === undefined ? {} : { contentSecurityPolicy: options.contentSecurityPolicy },
  );
  const views =
    options.viewsDir === undefined ? null : createViewRenderer(options.viewsDir, { cache: options.environment !== 'development' });
  const timeoutMs = options.requestTimeoutMs;
  const deadlines =
    timeoutMs > 0 ? new Deadlines<HttpRequestContext>(timeoutMs, (ctx) => answerTimeout(ctx, timeoutMs, options.debug)) : null;
  return {
    services: options.services,
    urls: new UrlBuilder(options.routes),
    headers,
    debug: options.debug,
    deadlines,
    executionContext: options.executionContext ?? false,
    observer: options.observer ?? null,
    i18n: (options.services as { i18n?: I18n }).i18n,
    views,
    copyHeadersToRaw: (reply) => headers.applyRaw(reply),
  };
}

/** The route's middleware functions, in its order (names the app does not provide are reported by the boot checks). */
function middlewareOf(route: RouteDefinition, options: HttpServerOptions): Middleware[] {
  const middleware = options.middleware ?? {};
  return route.middleware.map((name) => middleware[name]).filter((m): m is Middleware => m !== undefined);
}

/**
 * Check the route table and compile every route's pipeline, by route name.
 * @throws {BinderyError} every boot problem together (see {@link createHttpServer}).
 */
function compilePipelines(options: HttpServerOptions, env: PipelineEnv): Map<string, FastifyRouteHandler> {
  const problems = new BootProblems();
  checkRouteTable(options, problems);
  const middleware = options.middleware ?? {};
  const pipelines = new Map<string, FastifyRouteHandler>();
  for (const route of options.routes) {
    const handler = options.handlers[route.name];
    if (handler === undefined) continue;
    const chain = middlewareOf(route, options);
    const pipeline = problems.capture(() =>
      compileRoutePipeline(route, handler, withPasswordConfirmation(route, withRateLimit(route, chain, options.services), middleware), env),
    );
    if (pipeline !== undefined) pipelines.set(route.name, pipeline);
  }
  problems.throwIfAny();
  return pipelines;
}

/**
 * The Fastify instance on bindery's own `http.Server`: connection deadlines, client errors, the method
 * override before routing, and 503 for requests arriving once the server started to close.
 */
function createFastify(options: HttpServerOptions, headers: StandardHeaders): { app: FastifyInstance; serverLog: FastifyBaseLogger } {
  const override = new MethodOverride(options.maxBodyBytes);
  const limits = connectionLimits(options);
  const serverLog = options.logger ?? pino({ level: 'info' });
  const security = securityHeaders(options.environment);
  // Set when the server starts to close: requests still arriving on open
  // connections are answered 503 (problem details) instead of being served.
  let closing = false;
  const app = Fastify({
    bodyLimit: options.maxBodyBytes,
    trustProxy: trustProxyOption(options.trustProxy),
    genReqId: requestIdFor,
    requestTimeout: limits.bodyTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    return503OnClosing: false,
    clientErrorHandler: clientErrorHandler({
      headers: security,
      bodyTimeoutMs: limits.bodyTimeoutMs,
      headersTimeoutMs: limits.headersTimeoutMs,
      log: serverLog,
    }),
    // A URL that cannot be decoded, a path parameter over the length limit:
    // rendered like every other error (problem details or page, standard headers).
    frameworkErrors: (error, request, reply) => {
      headers.apply(reply);
      sendError(request, reply, fromFastifyError(error, request, options.maxBodyBytes), options.debug, null);
    },
    serverFactory: (handler, serverOptions: FastifyServerOptions) => {
      // Node checks request and headers deadlines once per
      // connectionsCheckingInterval (30 s by default): check often enough
      // for the deadlines to hold within a tenth of the shortest.
      const server = createServer({ connectionsCheckingInterval: limits.checkIntervalMs }, (req, res) => {
        if (closing) answerShuttingDown(req, res, security);
        // Only a POST can carry an override: everything else goes straight to Fastify.
        else if (req.method !== 'POST') handler(req, res);
        else override.handle(req, res, handler);
      });
      server.headersTimeout = limits.headersTimeoutMs;
      if (serverOptions.keepAliveTimeout !== undefined) server.keepAliveTimeout = serverOptions.keepAliveTimeout;
      if (serverOptions.requestTimeout !== undefined) server.requestTimeout = serverOptions.requestTimeout;
      if (serverOptions.connectionTimeout !== undefined) server.setTimeout(serverOptions.connectionTimeout);
      if (serverOptions.maxRequestsPerSocket) server.maxRequestsPerSocket = serverOptions.maxRequestsPerSocket;
      return server;
    },
  }) as unknown as FastifyInstance;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  return { app, serverLog };
}

/** Errors Fastify raises before a route's pipeline runs (body parsing, limits), rendered like every other error. */
function setErrorHandler(
  app: FastifyInstance,
  options: HttpServerOptions,
  headers: StandardHeaders,
  bodyLimits: ReadonlyMap<string, BodyLimit>,
): void {
  app.setErrorHandler((error, request, reply) => {
    headers.apply(reply);
    const route = options.routes.find((r) => r.name === (request.routeOptions.config as { bindery?: string } | undefined)?.bindery) ?? null;
    const limit = route === null ? undefined : bodyLimits.get(route.name);
    const mapped = fromFastifyError(error, request, limit?.bytes ?? options.maxBodyBytes, limit?.source);
    const refused =
      route?.jsonOnly && mapped instanceof HttpError && mapped.status === 415
        ? malformedBody(
            `This route accepts only a JSON body (Content-Type: application/json); got ${request.headers['content-type']?.split(';')[0]?.trim() || 'no Content-Type'}.`,
            error,
          )
        : mapped;
    sendError(request, reply, refused, options.debug, route);
  });
}

/** Register every route on Fastify (routes with CORS together with their preflight). */
function registerRoutes(
  app: FastifyInstance,
  options: HttpServerOptions,
  headers: StandardHeaders,
  bodyLimits: ReadonlyMap<string, BodyLimit>,
  pipelines: ReadonlyMap<string, FastifyRouteHandler>,
): void {
  const routeOptions = (route: RouteDefinition): RouteOptions => {
    const beforeBody = compileBeforeBody(route, middlewareOf(route, options), headers, options.debug, options.services);
    const limit = bodyLimits.get(route.name)!;
    return {
      method: route.method,
      url: fastifyPath(route.path),
      config: {
        bindery: route.name,
        bodyLimitSource: limit.source,
        uploads: compileUploadPlan(route, route.bodyLimit ?? options.maxBodyBytes) ?? undefined,
        rawBody: route.rawBody === true,
      },
      bodyLimit: limit.bytes,
      ...(beforeBody !== undefined ? { onRequest: beforeBody } : {}),
      handler: pipelines.get(route.name)!,
    };
  };
  for (const route of options.routes) if (route.cors === undefined) app.route(routeOptions(route));
  registerCorsRoutes(
    app,
    options.routes.filter((r) => r.cors !== undefined),
    options.routes,
    routeOptions,
  );
}

/** The connection deadlines in milliseconds, with their defaults (see {@link HttpServerOptions}). */
export function connectionLimits(
  options: Pick<HttpServerOptions, 'requestTimeoutMs' | 'bodyTimeoutMs' | 'headersTimeoutMs' | 'keepAliveTimeoutMs'>,
): { bodyTimeoutMs: number; headersTimeoutMs: number; keepAliveTimeoutMs: number; checkIntervalMs: number } {
  const positive = (name: string, value: number | undefined, fallback: number): number => {
    const v = value ?? fallback;
    if (!Number.isFinite(v) || v <= 0) throw new RangeError(`${name} must be a positive number of milliseconds, got ${String(value)}`);
    return Math.ceil(v);
  };
  const bodyTimeoutMs = positive('bodyTimeoutMs', options.bodyTimeoutMs, options.requestTimeoutMs > 0 ? options.requestTimeoutMs : 30_000);
  // Node refuses a headers timeout longer than the request timeout.
  const headersTimeoutMs = Math.min(bodyTimeoutMs, positive('headersTimeoutMs', options.headersTimeoutMs, 10_000));
  const keepAliveTimeoutMs = positive('keepAliveTimeoutMs', options.keepAliveTimeoutMs, 5_000);
  const checkIntervalMs = Math.max(50, Math.min(1000, Math.floor(Math.min(bodyTimeoutMs, headersTimeoutMs) / 10)));
  return { bodyTimeoutMs, headersTimeoutMs, keepAliveTimeoutMs, checkIntervalMs };
}

/** `HTTP_TRUST_PROXY` as Fastify takes it (a hop count becomes proxy-addr's "trust the nearest N hops" function). */
function trustProxyOption(value: HttpServerOptions['trustProxy']): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (value === undefined) return false;
  if (typeof value === 'number') return (_address, hop) => hop < value;
  if (typeof value === 'boolean') return value;
  return [...value];
}
