/**
 * The `observability()` setup step (docs/observability.md): OpenTelemetry
 * traces and metrics, Prometheus `/metrics`, the access log and the
 * development dashboard, each on only when its settings ask for it.
 *
 * With nothing on (the default outside development) the step adds no hook
 * and loads no OpenTelemetry module: requests, statements and job runs cost
 * what they cost without it. What is on is wired by start-observability.ts,
 * loaded then.
 */
import type { SetupStep } from '../app/setup-step.js';
import { DASHBOARD_PATH } from './dashboard/paths.js';
import { observabilityConfig } from './observability-config.js';
import { observabilitySettings } from './settings.js';

/** Options of {@link observability}. */
export interface ObservabilityOptions {
  /** How many requests, and how many job runs, the development dashboard keeps (default 100). */
  readonly dashboardSize?: number;
  /**
   * A span per pipeline stage of a traced request (binding and validation,
   * handler, rendering; default true). `false` keeps the request's span and
   * its statements, jobs and mails, and saves one to three spans per request
   * (docs/observability.md "Cost").
   */
  readonly stageSpans?: boolean;
}

/**
 * Observability for an app (docs/observability.md): list it first in the
 * setup list, so that everything after it is observed.
 *
 * - Traces (`OTEL_EXPORTER_OTLP_ENDPOINT` or `…_TRACES_ENDPOINT` set): a
 *   span per request, per pipeline stage, per SQL statement, per job queued
 *   and run, per mail sent and listener run; exported over OTLP/HTTP.
 * - Metrics: over OTLP (the same endpoint), and/or at `GET /metrics` in the
 *   Prometheus format (`METRICS_ENDPOINT=true`; in production only to
 *   clients sending `METRICS_TOKEN` as a bearer token).
 * - `HTTP_ACCESS_LOG=true`: a log line per request.
 * - With `APP_ENV=development` (and `DEV_DASHBOARD` not `false`): the
 *   dashboard at `/_bindery`. Never in production.
 *
 * @param options `dashboardSize`: requests and job runs the dashboard keeps (default 100); `stageSpans`: a span per pipeline stage (default true).
 * @returns the step to put in `defineApp({ setup: [...] })`.
 * @throws {RangeError} when `dashboardSize` is not a positive integer.
 * @throws {SettingsError} at boot for a bad `OTEL_*`, `METRICS_*`, `HTTP_ACCESS_LOG` or `DEV_DASHBOARD` value.
 * @example setup: [observability(), cache(), session(), auth(), jobs(), mail()]
 */
export function observability(options: ObservabilityOptions = {}): SetupStep {
  const dashboardSize = options.dashboardSize ?? 100;
  if (!Number.isSafeInteger(dashboardSize) || dashboardSize < 1)
    throw new RangeError(`observability({ dashboardSize }) must be a positive integer, got ${String(options.dashboardSize)}`);
  return {
    name: 'observability',
    settings: observabilitySettings,
    async setup(ctx) {
      const settings = ctx.settingsOf(observabilitySettings);
      const environment = String(ctx.settings['APP_ENV']);
      const config = observabilityConfig(settings, { name: ctx.app.name, environment });
      if (settings.DEV_DASHBOARD && environment === 'production')
        ctx.log.warn(`DEV_DASHBOARD=true is ignored with APP_ENV=production: ${DASHBOARD_PATH} is never served in production.`);
      if (config.prometheus !== null && !config.prometheus.localFree && config.prometheus.token === undefined)
        ctx.log.warn(
          'METRICS_ENDPOINT=true without METRICS_TOKEN in production: GET /metrics answers 403 to every client. Set METRICS_TOKEN and have the scraper send it as a bearer token (docs/observability.md "Prometheus").',
        );
      if (config.traces === null && config.otlpMetrics === null && config.prometheus === null && !config.accessLog && !config.dashboard)
        return;
      const { startObservability } = await import('./start-observability.js');
      await startObservability(ctx, config, { dashboardSize, stageSpans: options.stageSpans ?? true });
    },
  };
}
