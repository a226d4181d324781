/**
 * Where an app's metrics go (docs/observability.md "Metrics"): pushed over
 * OTLP/HTTP every `OTEL_METRIC_EXPORT_INTERVAL`, and/or pulled by a
 * Prometheus scraper from `GET /metrics`. Export failures are logged, never
 * thrown (export-warnings.ts).
 */
import type { Meter } from '@opentelemetry/api';
import { OTLPMetricExporter as JsonMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as ProtobufMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { PrometheusExporter, PrometheusSerializer } from '@opentelemetry/exporter-prometheus';
import type { Resource } from '@opentelemetry/resources';
import {
  AggregationTemporality,
  InstrumentType,
  MeterProvider,
  PeriodicExportingMetricReader,
  type IMetricReader,
} from '@opentelemetry/sdk-metrics';
import type { FastifyBaseLogger } from 'fastify';
import { ExportWarnings, warnOnFailedMetrics } from './export-warnings.js';
import type { ObservabilityConfig } from './observability-config.js';
import type { DurationHistogram } from './duration-histogram.js';
import { requestDurationHistogram } from './metrics.js';
import { SCOPE } from './telemetry-parts.js';

/** An app's metric pipeline. */
export interface MetricsExport {
  readonly meter: Meter;
  /** The request-duration histogram, counted by bindery and collected by every reader (duration-histogram.ts). */
  readonly requestDuration: DurationHistogram;
  /** The metrics now, in the Prometheus text format; `null` when `METRICS_ENDPOINT` is off. */
  readonly scrape: (() => Promise<string>) | null;
  /** Push what is pending, then stop. Idempotent. */
  shutdown(): Promise<void>;
}

/**
 * Start the metric pipeline, or return `null` when no metric goes anywhere.
 * @param version bindery's version, the scope version of its instruments.
 */
export function startMetrics(
  config: ObservabilityConfig,
  resource: Resource,
  log: FastifyBaseLogger,
  version: string,
): MetricsExport | null {
  const readers: IMetricReader[] = [];
  const requestDuration = requestDurationHistogram();
  const scope = { name: SCOPE, version };
  const otlp = config.otlpMetrics;
  if (otlp !== null) {
    const options = { url: otlp.url, headers: { ...otlp.headers }, timeoutMillis: otlp.timeoutMs };
    const exporter = otlp.protocol === 'http/json' ? new JsonMetricExporter(options) : new ProtobufMetricExporter(options);
    const temporality = exporter.selectAggregationTemporality(InstrumentType.HISTOGRAM);
    readers.push(
      new PeriodicExportingMetricReader({
        exporter: warnOnFailedMetrics(exporter, new ExportWarnings(log, 'metrics', otlp.url)),
        exportIntervalMillis: otlp.intervalMs,
        exportTimeoutMillis: Math.min(otlp.timeoutMs, otlp.intervalMs),
        metricProducers: [requestDuration.producer(temporality, scope, resource)],
      }),
    );
  }
  let prometheus: PrometheusExporter | null = null;
  if (config.prometheus !== null) {
    prometheus = new PrometheusExporter({
      preventServerStart: true,
      metricProducers: [requestDuration.producer(AggregationTemporality.CUMULATIVE, scope, resource)],
    });
    readers.push(prometheus);
  }
  if (readers.length === 0) return null;
  const provider = new MeterProvider({ resource, readers });
  // No otel_scope_* labels on every series: every metric here is bindery's.
  const serializer = new PrometheusSerializer(undefined, false, undefined, false, true);
  const pull = prometheus;
  let stopping: Promise<void> | undefined;
  return {
    meter: provider.getMeter(SCOPE, version),
    requestDuration,
    scrape:
      pull === null
        ? null
        : async () => {
            const { resourceMetrics, errors } = await pull.collect();
            for (const error of errors) log.warn({ err: error }, 'collecting a metric for /metrics failed');
            return serializer.serialize(resourceMetrics);
          },
    shutdown() {
      stopping ??= provider.shutdown().catch((error: unknown) => log.warn({ err: error }, 'stopping the metrics failed'));
      return stopping;
    },
  };
}
