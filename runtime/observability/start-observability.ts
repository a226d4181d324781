/**
 * Wiring what the `observability()` step turned on (docs/observability.md):
 * the tracer and the metric pipeline (their OpenTelemetry SDK modules loaded
 * only when used), the hooks into the requests, the pool's statements, the
 * job runs and the events, and the routes of `/metrics` and the dashboard.
 */
import { randomUUID } from 'node:crypto';
import type { Attributes } from '@opentelemetry/api';
import type { SetupContext } from '../app/setup-step.js';
import type { Database } from '../db/connect.js';
import type { EngineName } from '../db/engine.js';
import { observeQueries } from '../db/query-observer.js';
import { tapEvents } from '../events/event-taps.js';
import type { AnyRouteHandler } from '../http/handler.js';
import { observeJobRuns } from '../jobs/job-observer.js';
import { jobsRuntimeOf } from '../jobs/jobs-runtime.js';
import type { RouteDefinition } from '../routing/route-table.js';
import { binderyVersion } from '../support/package-root.js';
import { AppTelemetry } from './app-telemetry.js';
import { dashboardRoutes } from './dashboard/dashboard-routes.js';
import { Recorder } from './dashboard/records.js';
import { metricsRoute } from './metrics-endpoint.js';
import { AppMetrics } from './metrics.js';
import type { ObservabilityConfig } from './observability-config.js';

/**
 * Start what `config` turns on, for the app being set up.
 * @param options.dashboardSize requests and job runs the dashboard keeps; `stageSpans`: a span per pipeline stage.
 */
export async function startObservability(
  ctx: SetupContext,
  config: ObservabilityConfig,
  options: { readonly dashboardSize: number; readonly stageSpans: boolean },
): Promise<void> {
  const version = binderyVersion();
  const environment = String(ctx.settings['APP_ENV']);
  const exporting = config.traces !== null || config.otlpMetrics !== null || config.prometheus !== null;
  const resource = exporting
    ? (await import('./resource.js')).appResource({
        'service.instance.id': randomUUID(),
        'deployment.environment.name': environment,
        ...config.resource,
      })
    : null;
  const tracing = config.traces === null ? null : (await import('./tracing.js')).startTracing(config.traces, resource!, ctx.log, version);
  const exported =
    config.otlpMetrics === null && config.prometheus === null
      ? null
      : (await import('./metrics-export.js')).startMetrics(config, resource!, ctx.log, version);
  const services = ctx.services;
  const metrics =
    exported === null
      ? null
      : new AppMetrics(
          exported.meter,
          {
            pool: ctx.database.engine,
            poolName: ctx.app.name,
            jobsDb: () => {
              const runtime = jobsRuntimeOf(services);
              return runtime === undefined ? null : { backend: runtime.backend, db: ctx.database.db };
            },
          },
          exported.requestDuration,
        );
  const recorder = config.dashboard ? new Recorder(options.dashboardSize) : null;
  const telemetry = new AppTelemetry(options.stageSpans, {
    tools: {
      tracer: tracing?.tracer ?? null,
      traceContext: tracing?.traceContext ?? null,
      contexts: tracing?.contexts ?? null,
      database: databaseAttributes(ctx.database),
    },
    metrics,
    recorder,
    accessLog: config.accessLog ? ctx.log : null,
  });

  ctx.observeRequests(telemetry);
  if (tracing !== null || metrics !== null || recorder !== null) observeJobRuns(services, telemetry);
  if (tracing !== null || recorder !== null) {
    // SQL statements, jobs and mails find their request or job run through the execution context.
    ctx.useExecutionContext();
    observeQueries(ctx.database, telemetry);
  }
  if (metrics !== null)
    tapEvents(services, (event, payload) => {
      if (event === 'session:login_failed') metrics.loginFailed(String((payload as { reason?: unknown }).reason));
    });

  const routes: RouteDefinition[] = [];
  const handlers: Record<string, AnyRouteHandler> = {};
  if (config.prometheus !== null && exported?.scrape) {
    const { route, handler } = metricsRoute(exported.scrape, config.prometheus);
    routes.push(route);
    handlers[route.name] = handler;
  }
  if (recorder !== null) {
    const dashboard = dashboardRoutes(recorder, ctx.database, ctx.app.name, () => jobsRuntimeOf(services)?.backend);
    routes.push(...dashboard.routes);
    Object.assign(handlers, dashboard.handlers);
  }
  if (routes.length > 0) ctx.addRoutes(routes, handlers);
  ctx.onClose(async () => {
    await tracing?.shutdown();
    await exported?.shutdown();
  });
}

/** `db.system.name` of each engine (OpenTelemetry's well-known names) and the port its URL defaults to. */
const DATABASE_SYSTEMS: Readonly<Record<EngineName, { readonly name: string; readonly port: number }>> = {
  postgres: { name: 'postgresql', port: 5432 },
  mysql: { name: 'mysql', port: 3306 },
  mariadb: { name: 'mariadb', port: 3306 },
};

/** The attributes of the app's database on every SQL span (OpenTelemetry database conventions). */
function databaseAttributes(database: Database): Attributes {
  const system = DATABASE_SYSTEMS[database.engine.name];
  const attributes: Attributes = { 'db.system.name': system.name };
  const connection = database.engine.url;
  if (connection === undefined) return attributes;
  try {
    const url = new URL(connection);
    const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
    if (name !== '') attributes['db.namespace'] = name;
    if (url.hostname !== '') attributes['server.address'] = url.hostname.replace(/^\[|\]$/g, '');
    attributes['server.port'] = url.port === '' ? system.port : Number(url.port);
  } catch {
    // Not a URL: the system alone.
  }
  return attributes;
}
