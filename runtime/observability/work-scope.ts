/**
 * One unit of observed work — a request or a job run — as the code it runs
 * sees it (the execution context's `telemetry`; docs/observability.md):
 * its span and its record for the development dashboard. SQL statements,
 * queued jobs, mails and listeners become child spans of the span active
 * where they happen (a stage of the pipeline, the job's run, a span of the
 * app's own) and entries of the record.
 *
 * Either part may be absent: with tracing off there are no spans (and no
 * span objects), with the dashboard off no record. A work whose span is not
 * sampled makes no child spans either. Spans are made active through
 * OpenTelemetry's context (an AsyncLocalStorage context manager, see
 * tracing.ts), so concurrent calls of one request each get the right parent
 * and the app's own `@opentelemetry/api` spans nest with bindery's.
 */
import {
  ROOT_CONTEXT,
  type Attributes,
  type Context,
  type Span,
  SpanKind,
  type SpanOptions,
  SpanStatusCode,
  trace,
  type Tracer,
} from '@opentelemetry/api';
import type { ListenerWork, MailWork, QueuedWork, TraceCarrier, WorkTelemetry } from '../context/work-telemetry.js';
import type { QueryFinished } from '../db/query-observer.js';
import { isThenable } from '../http/middleware-chain.js';
import type { WorkRecord } from './dashboard/records.js';
import { type SqlSummary, summarizeSql } from './sql-summary.js';

/** Reading and writing W3C trace context (trace-context.ts). */
export interface TraceContextCodec {
  /** The trace context naming `span` as the parent. */
  carrierOf(span: Span): TraceCarrier;
  /** The context a carrier (request headers, a job's stored context) names; a malformed one names none (a new trace). */
  contextOf(carrier: Readonly<Record<string, unknown>>): Context;
}

/** OpenTelemetry's active context: the global context manager (or bindery's own, reached directly: the API looks the global up on every call). */
export interface ActiveContext {
  active(): Context;
  with<T>(context: Context, fn: () => T): T;
}

/** What every work of an app shares: the tracer, the database's attributes. */
export interface WorkTools {
  /** The tracer, or `null` when tracing is off. */
  readonly tracer: Tracer | null;
  /** The active context, when tracing is on. */
  readonly contexts: ActiveContext | null;
  /** W3C trace context, when tracing is on. */
  readonly traceContext: TraceContextCodec | null;
  /** `db.system.name`, `db.namespace`, `server.address`, `server.port` of the app's database. */
  readonly database: Attributes;
}

/** The most statements one record keeps; more are counted, not kept. */
export const MAX_RECORDED_QUERIES = 500;

/** See the module doc. */
export class WorkScope implements WorkTelemetry {
  readonly #tools: WorkTools;
  /** The work's own span (the request's server span, the run's consumer span), if traced and sampled. */
  readonly root: Span | null;
  readonly record: WorkRecord | null;
  /** `performance.now()` when the work started: record entries are offsets from it. */
  readonly #started: number;

  constructor(tools: WorkTools, root: Span | null, record: WorkRecord | null, started: number) {
    this.#tools = tools;
    this.root = root?.isRecording() ? root : null;
    this.record = record;
    this.#started = started;
  }

  /** Run the whole work (`fn`) with its own span active. */
  enter<T>(fn: () => T): T {
    return this.root === null ? fn() : this.#tools.contexts!.with(trace.setSpan(ROOT_CONTEXT, this.root), fn);
  }

  /** Run `fn` with `span` active, when there is one. */
  within<T>(span: Span | null, fn: () => T): T {
    if (span === null) return fn();
    const contexts = this.#tools.contexts!;
    return contexts.with(trace.setSpan(contexts.active(), span), fn);
  }

  /**
   * Run a stage of the work as a child span, active while it runs.
   * @param options the span's kind and attributes (made once per stage: the SDK copies them).
   * @returns what `run` returns; a promise is followed until it settles.
   */
  stage<T>(name: string, options: SpanOptions, run: () => T): T {
    if (this.root === null) return run();
    const parent = this.#parent();
    const span = this.#tools.tracer!.startSpan(name, options, parent);
    let value: T;
    try {
      value = this.#tools.contexts!.with(trace.setSpan(parent, span), run);
    } catch (error) {
      endStage(span, error);
      throw error;
    }
    if (!isThenable(value)) {
      endStage(span, undefined);
      return value;
    }
    return Promise.resolve(value).then(
      (v) => {
        endStage(span, undefined);
        return v;
      },
      (error: unknown) => {
        endStage(span, error);
        throw error;
      },
    ) as T;
  }

  /** A SQL statement starts (see runtime/db/query-observer.ts). */
  query(sql: string): QueryFinished | undefined {
    const record = this.record;
    if (this.root === null && record === null) return undefined;
    const summary = summarizeSql(sql);
    let span: Span | null = null;
    if (this.root !== null) {
      const shape = this.#statementSpan(summary);
      span = this.#tools.tracer!.startSpan(shape.name, shape.options, this.#parent());
    }
    const start = performance.now();
    return (rows, error) => {
      if (span !== null) {
        if (rows !== null) span.setAttribute('db.response.returned_rows', rows);
        const code = (error as { code?: unknown } | undefined)?.code;
        if (typeof code === 'string') span.setAttribute('db.response.status_code', code);
        endSpan(span, error);
      }
      if (record !== null) {
        if (record.queries.length >= MAX_RECORDED_QUERIES) record.droppedQueries++;
        else
          record.queries.push({
            text: summary.text,
            atMs: start - this.#started,
            durationMs: performance.now() - start,
            rows,
            ...(error === undefined ? {} : { error: messageOf(error) }),
          });
      }
    };
  }

  async queueJob<T extends { readonly id: string }>(job: QueuedWork, queue: (trace: TraceCarrier | undefined) => Promise<T>): Promise<T> {
    const span = this.#child(`send ${job.name}`, SpanKind.PRODUCER, {
      'messaging.system': 'graphile_worker',
      'messaging.operation.type': 'send',
      'messaging.destination.name': job.name,
      'bindery.job.kind': job.kind,
    });
    const entry = { name: job.name, kind: job.kind, id: undefined as string | undefined, error: undefined as string | undefined };
    this.record?.jobs.push(entry);
    try {
      const queued = await this.within(span, () => queue(span === null ? undefined : this.#tools.traceContext!.carrierOf(span)));
      entry.id = queued.id;
      span?.setAttribute('messaging.message.id', queued.id);
      if (span !== null) endSpan(span, undefined);
      return queued;
    } catch (error) {
      entry.error = messageOf(error);
      if (span !== null) endSpan(span, error);
      throw error;
    }
  }

  async sendMail<T>(mail: MailWork, send: () => Promise<T>): Promise<T> {
    const span = this.#child('send mail', SpanKind.CLIENT, {
      'bindery.mail.driver': mail.driver,
      'bindery.mail.recipients': mail.to.length,
    });
    const entry = { subject: mail.subject, to: [...mail.to], driver: mail.driver, error: undefined as string | undefined };
    this.record?.mails.push(entry);
    try {
      const sent = await this.within(span, send);
      if (span !== null) endSpan(span, undefined);
      return sent;
    } catch (error) {
      entry.error = messageOf(error);
      if (span !== null) endSpan(span, error);
      throw error;
    }
  }

  async runListener<T>(listener: ListenerWork, run: () => Promise<T>): Promise<T> {
    const span = this.#child(`listener ${listener.name}`, SpanKind.INTERNAL, {
      'bindery.listener': listener.name,
      'bindery.event': listener.event,
    });
    this.record?.listeners.push({ name: listener.name, event: listener.event });
    try {
      const value = await this.within(span, run);
      if (span !== null) endSpan(span, undefined);
      return value;
    } catch (error) {
      if (span !== null) endSpan(span, error);
      throw error;
    }
  }

  /** A child of the active span (or of the work's own); `null` when the work is not traced. */
  #child(name: string, kind: SpanKind, attributes: Attributes): Span | null {
    if (this.root === null) return null;
    return this.#tools.tracer!.startSpan(name, { kind, attributes }, this.#parent());
  }

  /** The context of a child span: the active one, or the work's own span's when none is active (a traced work only). */
  #parent(): Context {
    const active = this.#tools.contexts!.active();
    return trace.getSpan(active) === undefined ? trace.setSpan(active, this.root!) : active;
  }

  /** The name and options of a statement's span, made once per statement text (the SDK copies the attributes). */
  #statementSpan(summary: SqlSummary): StatementSpan {
    const database = this.#tools.database;
    let shapes = statementSpans.get(database);
    if (shapes === undefined) statementSpans.set(database, (shapes = new WeakMap()));
    let shape = shapes.get(summary);
    if (shape === undefined) {
      const attributes: Attributes = { ...database, 'db.query.text': summary.text };
      if (summary.operation !== '') attributes['db.operation.name'] = summary.operation;
      if (summary.table !== undefined) attributes['db.collection.name'] = summary.table;
      shape = {
        name: summary.table === undefined ? summary.operation || 'SQL' : `${summary.operation} ${summary.table}`,
        options: { kind: SpanKind.CLIENT, attributes },
      };
      shapes.set(summary, shape);
    }
    return shape;
  }
}

/** A statement's span name and options. */
interface StatementSpan {
  readonly name: string;
  readonly options: SpanOptions;
}
/** By the app's database attributes, then by statement summary (summaries are cached per text, sql-summary.ts). */
const statementSpans = new WeakMap<Attributes, WeakMap<SqlSummary, StatementSpan>>();

/** End `span`, marked as failed with `error` (when there is one). */
export function endSpan(span: Span, error: unknown): void {
  if (error !== undefined) {
    span.recordException(error instanceof Error ? error : String(error));
    span.setStatus({ code: SpanStatusCode.ERROR, message: messageOf(error) });
    span.setAttribute('error.type', errorType(error));
  }
  span.end();
}

/** End a stage's span; a client error (a 400, a 422) is an answer, not a failure of the stage. */
function endStage(span: Span, error: unknown): void {
  endSpan(span, isClientError(error) ? undefined : error);
}

/** An error that answers 4xx (`HttpError`, a validation error): the client's mistake. */
function isClientError(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 500;
}

/** `error.type`: the error's code (`23505`, `BINDERY_…`), else its class name. */
export function errorType(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code !== '') return code;
  return error instanceof Error ? error.constructor.name : '_OTHER';
}

/** The message of anything thrown. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
