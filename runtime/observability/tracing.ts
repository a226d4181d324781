/**
 * The tracer of an app (docs/observability.md "Traces"): an OpenTelemetry
 * tracer provider with the configured sampler, a batch span processor and
 * an OTLP/HTTP exporter (protobuf or JSON) whose failures are logged, never
 * thrown.
 *
 * Spans are made active through OpenTelemetry's context API, so an
 * `AsyncLocalStorage` context manager is registered as the global one unless
 * the process already has one (it then serves bindery as well), and kept for
 * the life of the process. The provider is registered as the global tracer
 * provider when none is, so the app's own code can reach the active span
 * (`trace.getActiveSpan()`) and start spans of its own with
 * `@opentelemetry/api`; bindery's own spans use its provider either way.
 */
import { context, trace, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import type { Resource } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  type Sampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import type { FastifyBaseLogger } from 'fastify';
import { ExportWarnings, warnOnFailedSpans } from './export-warnings.js';
import type { TracesConfig } from './observability-config.js';
import type { SamplerName } from './settings.js';
import { w3cTraceContext } from './trace-context.js';
import type { ActiveContext, TraceContextCodec } from './work-scope.js';
import { SCOPE } from './telemetry-parts.js';

/** An app's tracing. */
export interface Tracing {
  readonly tracer: Tracer;
  /** W3C trace context in and out. */
  readonly traceContext: TraceContextCodec;
  /** OpenTelemetry's active context. */
  readonly contexts: ActiveContext;
  /** Whether this app's provider became OpenTelemetry's global one (the first traced app in the process). */
  readonly global: boolean;
  /** Export what is still queued (within the export timeout), then stop. Idempotent. */
  shutdown(): Promise<void>;
  /** Export what is queued now (tests, `bindery` commands about to exit). */
  flush(): Promise<void>;
}

/**
 * Start tracing.
 * @param version bindery's version, the scope version of its spans.
 */
export function startTracing(config: TracesConfig, resource: Resource, log: FastifyBaseLogger, version: string): Tracing {
  const options = { url: config.url, headers: { ...config.headers }, timeoutMillis: config.timeoutMs };
  const exporter = config.protocol === 'http/json' ? new JsonTraceExporter(options) : new ProtobufTraceExporter(options);
  const processor = new BatchSpanProcessor({
    exporter: warnOnFailedSpans(exporter, new ExportWarnings(log, 'spans', config.url)),
    scheduledDelayMillis: config.batch.delayMs,
    maxQueueSize: config.batch.maxQueueSize,
    maxExportBatchSize: config.batch.maxBatchSize,
    // Give an export its own deadline and a little more before the batch is given up.
    exportTimeoutMillis: config.timeoutMs + 1000,
  });
  const provider = new TracerProvider({ resource, sampler: sampler(config.sampler, config.ratio), spanProcessors: [processor] });
  const global = registerGlobals(provider);
  let stopping: Promise<void> | undefined;
  return {
    tracer: provider.getTracer(SCOPE, version),
    traceContext: w3cTraceContext,
    contexts: contextManager ?? { active: () => context.active(), with: (ctx, fn) => context.with(ctx, fn) },
    global,
    flush: () => provider.forceFlush(),
    shutdown() {
      stopping ??= (async () => {
        if (global) trace.disable();
        await provider.shutdown().catch((error: unknown) => log.warn({ err: error }, 'stopping the tracer failed'));
      })();
      return stopping;
    },
  };
}

/** The sampler of `OTEL_TRACES_SAMPLER` and `OTEL_TRACES_SAMPLER_ARG`. */
export function sampler(name: SamplerName, ratio: number): Sampler {
  switch (name) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio);
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) });
  }
}

let contextManager: AsyncLocalStorageContextManager | undefined;

/**
 * Make sure OpenTelemetry has a context manager (bindery's, unless the
 * process registered one), and register `provider` as the global tracer
 * provider unless another one is.
 * @returns whether the provider was registered.
 */
function registerGlobals(provider: TracerProvider): boolean {
  if (contextManager === undefined) {
    const manager = new AsyncLocalStorageContextManager().enable();
    if (context.setGlobalContextManager(manager)) contextManager = manager;
    else manager.disable();
  }
  return trace.setGlobalTracerProvider(provider);
}
