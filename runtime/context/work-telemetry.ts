/**
 * What the work running now — a request, a job run, a scheduled task, a
 * listener — reports to the app's observability (docs/observability.md).
 *
 * The execution context carries it (`currentContext()?.telemetry`) once the
 * `observability()` setup step observes the work; otherwise it is absent and
 * the callers do exactly what they did without it (no span, no record, no
 * allocation). The framework's parts call it where work leaves the process
 * or starts elsewhere: the job queue (`queueJob`), the mailer (`sendMail`)
 * and the event bus (`runListener`); SQL statements are reported by the
 * database pool itself (runtime/db/query-observer.ts).
 */

/**
 * A W3C trace context (https://www.w3.org/TR/trace-context/) as stored with
 * a queued job: `traceparent` (`00-<trace id>-<span id>-<flags>`) and the
 * vendor `tracestate`, if any.
 */
export interface TraceCarrier {
  readonly traceparent: string;
  readonly tracestate?: string;
}

/** A job, scheduled task or listener being queued. */
export interface QueuedWork {
  /** The task's name (`send-welcome`, `mailprovider:webhook`). */
  readonly name: string;
  /** `job`, `schedule` or `listener`. */
  readonly kind: string;
}

/** A mail being sent. */
export interface MailWork {
  readonly subject: string;
  readonly to: readonly string[];
  /** `MAIL_DRIVER`: `smtp` or `outbox`. */
  readonly driver: string;
}

/** A synchronous listener run inside the work that emitted its event. */
export interface ListenerWork {
  /** The listener's name. */
  readonly name: string;
  /** The event it listens to (`session:login_failed`). */
  readonly event: string;
}

/** The telemetry of one unit of work; see the module doc. Never throws on its own account. */
export interface WorkTelemetry {
  /**
   * Queue a job as part of this work.
   * @param queue does the queuing; it receives the trace context to store with
   *   the job (so that the job's run continues this trace), or `undefined`
   *   when the work is not traced, and resolves to the queued job.
   * @returns what `queue` resolves to; rejects as it does.
   */
  queueJob<T extends { readonly id: string }>(job: QueuedWork, queue: (trace: TraceCarrier | undefined) => Promise<T>): Promise<T>;
  /**
   * Send a mail as part of this work.
   * @returns what `send` resolves to; rejects as it does.
   */
  sendMail<T>(mail: MailWork, send: () => Promise<T>): Promise<T>;
  /**
   * Run a synchronous listener as part of this work.
   * @returns what `run` resolves to; rejects as it does.
   */
  runListener<T>(listener: ListenerWork, run: () => Promise<T>): Promise<T>;
}
