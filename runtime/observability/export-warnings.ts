/**
 * Export failures, said once (docs/observability.md "When the receiver is
 * down"): an OTLP receiver that cannot be reached never slows or fails a
 * request — spans and metrics are exported in batches in the background and
 * a batch that cannot be sent is dropped — but the operator must learn of
 * it. The exporters here are wrapped so the first failure of a run of
 * failures logs a warning (`BINDERY_TELEMETRY_EXPORT_FAILED`) with the URL
 * and the reason, later failures add to a count logged at most once a minute,
 * and the first success after failures says so.
 */
import type { FastifyBaseLogger } from 'fastify';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import type { PushMetricExporter, ResourceMetrics } from '@opentelemetry/sdk-metrics';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';

const REPEAT_MS = 60_000;

/** Counts failed exports of one signal and logs them sparingly. */
export class ExportWarnings {
  readonly #log: FastifyBaseLogger;
  readonly #what: string;
  readonly #url: string;
  readonly #now: () => number;
  #failing = false;
  #dropped = 0;
  #lastWarning = 0;

  /**
   * @param what the signal, in words (`spans`, `metrics`).
   * @param url where they were sent.
   */
  constructor(log: FastifyBaseLogger, what: string, url: string, now: () => number = Date.now) {
    this.#log = log;
    this.#what = what;
    this.#url = url;
    this.#now = now;
  }

  /** Note the outcome of one export of `count` items. */
  note(result: ExportResult, count: number): void {
    if (result.code === ExportResultCode.SUCCESS) {
      if (this.#failing) {
        this.#log.info(
          { url: this.#url, dropped: this.#dropped },
          `exporting ${this.#what} works again; ${this.#dropped} were dropped meanwhile`,
        );
        this.#failing = false;
        this.#dropped = 0;
      }
      return;
    }
    this.#dropped += count;
    const now = this.#now();
    if (this.#failing && now - this.#lastWarning < REPEAT_MS) return;
    const first = !this.#failing;
    this.#failing = true;
    this.#lastWarning = now;
    this.#log.warn(
      { code: 'BINDERY_TELEMETRY_EXPORT_FAILED', url: this.#url, dropped: this.#dropped, reason: result.error?.message },
      `${first ? 'cannot export' : 'still cannot export'} ${this.#what} to ${this.#url} (${result.error?.message ?? 'no reason given'}); ${this.#dropped} dropped so far. Requests are not affected; check OTEL_EXPORTER_OTLP_ENDPOINT and that the receiver is up.`,
    );
  }
}

/**
 * A span exporter whose failures are logged (see the module doc). The batch
 * processor exports a full batch from inside the `end()` of the span that
 * filled it; the encoding is moved to the next turn of the event loop, out of
 * that request's path.
 */
export function warnOnFailedSpans(exporter: SpanExporter, warnings: ExportWarnings): SpanExporter {
  return {
    export(spans: ReadableSpan[], done: (result: ExportResult) => void) {
      setImmediate(() =>
        exporter.export(spans, (result) => {
          warnings.note(result, spans.length);
          done(result);
        }),
      );
    },
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
}

/** A metric exporter whose failures are logged (see the module doc). */
export function warnOnFailedMetrics(exporter: PushMetricExporter, warnings: ExportWarnings): PushMetricExporter {
  const wrapped: PushMetricExporter = {
    export(metrics: ResourceMetrics, done: (result: ExportResult) => void) {
      exporter.export(metrics, (result) => {
        warnings.note(
          result,
          metrics.scopeMetrics.reduce((n, s) => n + s.metrics.length, 0),
        );
        done(result);
      });
    },
    forceFlush: () => exporter.forceFlush(),
    shutdown: () => exporter.shutdown(),
  };
  if (exporter.selectAggregationTemporality) wrapped.selectAggregationTemporality = (t) => exporter.selectAggregationTemporality!(t);
  if (exporter.selectAggregation) wrapped.selectAggregation = (t) => exporter.selectAggregation!(t);
  return wrapped;
}
