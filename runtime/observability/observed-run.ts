/**
 * One observed run of a job, scheduled task or asynchronous listener
 * (docs/observability.md "Jobs"): a CONSUMER span `process <task>` — a
 * child of the span that queued the job, and linked to it, so a request and
 * the jobs it queued are one trace; a scheduled task's run starts a trace
 * of its own — its duration, and its dashboard record.
 */
import { type Link, type Span, SpanKind, trace } from '@opentelemetry/api';
import type { JobRun, JobRunObservation } from '../jobs/job-observer.js';
import { newWork, type RunRecord } from './dashboard/records.js';
import type { TelemetryParts } from './telemetry-parts.js';
import { endSpan, messageOf, WorkScope } from './work-scope.js';

/** See the module doc. */
export class ObservedRun implements JobRunObservation {
  readonly work: WorkScope | undefined;
  readonly #parts: TelemetryParts;
  readonly #run: JobRun;
  readonly #started: number;
  readonly #span: Span | null;
  readonly #record: RunRecord | null;

  constructor(parts: TelemetryParts, run: JobRun) {
    this.#started = performance.now();
    this.#parts = parts;
    this.#run = run;
    const tracer = parts.tools.tracer;
    let span: Span | null = null;
    if (tracer !== null) {
      const queuedBy = run.origin.trace === undefined ? undefined : parts.tools.traceContext!.contextOf({ ...run.origin.trace });
      const queuedSpan = queuedBy === undefined ? undefined : trace.getSpanContext(queuedBy);
      const links: Link[] = queuedSpan === undefined ? [] : [{ context: queuedSpan, attributes: { 'bindery.link': 'queued_by' } }];
      span = tracer.startSpan(
        `process ${run.name}`,
        {
          kind: SpanKind.CONSUMER,
          links,
          // A job queued by untraced work (or a cron run) starts a trace of its own.
          root: queuedSpan === undefined,
          attributes: {
            'messaging.system': 'graphile_worker',
            'messaging.operation.type': 'process',
            'messaging.destination.name': run.name,
            'messaging.message.id': run.id,
            'bindery.job.kind': run.kind,
            'bindery.job.attempt': run.attempt,
            'bindery.job.max_attempts': run.maxAttempts,
            ...(run.origin.requestId === undefined ? {} : { 'bindery.request_id': run.origin.requestId }),
          },
        },
        queuedBy,
      );
    }
    this.#span = span;
    const traceId = span?.isRecording() ? span.spanContext().traceId : undefined;
    this.#record =
      parts.recorder === null
        ? null
        : {
            ...newWork(`job-${run.id}-${run.attempt}`, traceId),
            kind: 'run',
            name: run.name,
            taskKind: run.kind,
            jobId: run.id,
            attempt: run.attempt,
            requestId: run.origin.requestId,
            outcome: 'running',
          };
    if (this.#record !== null) parts.recorder!.addRun(this.#record);
    this.work = span !== null || this.#record !== null ? new WorkScope(parts.tools, span, this.#record, this.#started) : undefined;
  }

  within<T>(run: () => T): T {
    return this.work === undefined ? run() : this.work.enter(run);
  }

  logFields(): Readonly<Record<string, string>> | undefined {
    const span = this.#span;
    // Asked as the run starts, while its span is recording (when sampled).
    if (span === null || !span.isRecording()) return undefined;
    const { traceId, spanId } = span.spanContext();
    return { trace_id: traceId, span_id: spanId };
  }

  finished(error: unknown): void {
    const ms = performance.now() - this.#started;
    const failed = error !== undefined;
    this.#parts.metrics?.jobFinished(this.#run.name, this.#run.kind, failed, ms / 1000);
    if (this.#span !== null) endSpan(this.#span, error);
    const record = this.#record;
    if (record !== null) {
      record.durationMs = ms;
      record.outcome = failed ? 'failed' : 'succeeded';
      if (failed)
        record.errors.push({
          status: null,
          code: typeof (error as { code?: unknown })?.code === 'string' ? (error as { code: string }).code : undefined,
          message: messageOf(error),
          stack: error instanceof Error ? error.stack : undefined,
        });
    }
  }
}
