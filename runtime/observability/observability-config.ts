/**
 * What the `observability()` step turns on, decided once at boot from its
 * settings and the app (docs/observability.md "What is on when").
 */
import type { SettingsValues } from '../config/setting.js';
import type { SamplerName, observabilitySettings } from './settings.js';

/** Where and how one OTLP signal is sent. */
export interface OtlpTarget {
  /** The full URL, e.g. `http://localhost:4318/v1/traces`. */
  readonly url: string;
  readonly protocol: 'http/protobuf' | 'http/json';
  readonly headers: Readonly<Record<string, string>>;
  /** One export's deadline, retries included, in milliseconds. */
  readonly timeoutMs: number;
}

/** Traces: where they go, which are kept, how they are batched. */
export interface TracesConfig extends OtlpTarget {
  readonly sampler: SamplerName;
  /** The share kept by the ratio samplers, 0 to 1. */
  readonly ratio: number;
  readonly batch: { readonly delayMs: number; readonly maxQueueSize: number; readonly maxBatchSize: number };
}

/** `GET /metrics` in the Prometheus text format (docs/observability.md "Prometheus"). */
export interface PrometheusConfig {
  /** `METRICS_TOKEN`: the bearer secret a scraper sends; unset, only local clients outside production read. */
  readonly token: string | undefined;
  /** Clients on this machine read without the token: outside production only (`APP_ENV` not `production`). */
  readonly localFree: boolean;
}

/** The whole decision. */
export interface ObservabilityConfig {
  /** Resource attributes of every span and metric (`service.name` included). */
  readonly resource: Readonly<Record<string, string>>;
  /** Traces over OTLP, or `null` (off). */
  readonly traces: TracesConfig | null;
  /** Metrics over OTLP, or `null` (off). */
  readonly otlpMetrics: (OtlpTarget & { readonly intervalMs: number }) | null;
  /** `GET /metrics` in the Prometheus text format, or `null` (off). */
  readonly prometheus: PrometheusConfig | null;
  /** One log line per request. */
  readonly accessLog: boolean;
  /** The development dashboard at `/_bindery`. */
  readonly dashboard: boolean;
}

type Settings = SettingsValues<(typeof observabilitySettings)['specs']>;

/**
 * Decide what is on.
 * @param app the app's name (the default `service.name`) and `APP_ENV`.
 */
export function observabilityConfig(settings: Settings, app: { readonly name: string; readonly environment: string }): ObservabilityConfig {
  const otel = !settings.OTEL_SDK_DISABLED;
  const base = settings.OTEL_EXPORTER_OTLP_ENDPOINT;
  const target = (signal: 'traces' | 'metrics', own: URL | undefined): OtlpTarget | null => {
    const url = own?.href ?? (base === undefined ? undefined : signalUrl(base, signal));
    if (url === undefined) return null;
    return {
      url,
      protocol: settings.OTEL_EXPORTER_OTLP_PROTOCOL,
      headers: settings.OTEL_EXPORTER_OTLP_HEADERS ?? {},
      timeoutMs: settings.OTEL_EXPORTER_OTLP_TIMEOUT,
    };
  };
  const tracesTarget =
    otel && settings.OTEL_TRACES_EXPORTER === 'otlp' ? target('traces', settings.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) : null;
  const metricsTarget =
    otel && settings.OTEL_METRICS_EXPORTER === 'otlp' ? target('metrics', settings.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT) : null;
  return {
    resource: {
      ...(settings.OTEL_RESOURCE_ATTRIBUTES ?? {}),
      'service.name': settings.OTEL_SERVICE_NAME ?? settings.OTEL_RESOURCE_ATTRIBUTES?.['service.name'] ?? app.name,
    },
    traces:
      tracesTarget === null
        ? null
        : {
            ...tracesTarget,
            sampler: settings.OTEL_TRACES_SAMPLER,
            ratio: settings.OTEL_TRACES_SAMPLER_ARG,
            batch: {
              delayMs: settings.OTEL_BSP_SCHEDULE_DELAY,
              maxQueueSize: settings.OTEL_BSP_MAX_QUEUE_SIZE,
              maxBatchSize: Math.min(settings.OTEL_BSP_MAX_EXPORT_BATCH_SIZE, settings.OTEL_BSP_MAX_QUEUE_SIZE),
            },
          },
    otlpMetrics: metricsTarget === null ? null : { ...metricsTarget, intervalMs: settings.OTEL_METRIC_EXPORT_INTERVAL },
    prometheus: settings.METRICS_ENDPOINT ? { token: settings.METRICS_TOKEN, localFree: app.environment !== 'production' } : null,
    accessLog: settings.HTTP_ACCESS_LOG,
    dashboard: settings.DEV_DASHBOARD && app.environment === 'development',
  };
}

/** `<base>/v1/<signal>`, as the OTLP exporter specification builds it from `OTEL_EXPORTER_OTLP_ENDPOINT`. */
function signalUrl(base: URL, signal: 'traces' | 'metrics'): string {
  const root = base.href.endsWith('/') ? base.href : `${base.href}/`;
  return `${root}v1/${signal}`;
}
