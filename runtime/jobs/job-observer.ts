/**
 * Observing job runs (docs/observability.md "Jobs"): the hook the jobs
 * runtime offers to the `observability()` setup step — every run of a job,
 * scheduled task or asynchronous listener in this process becomes a span
 * (continuing the trace of the work that queued it) and a duration sample.
 *
 * The observer is found from the app's services when a task starts, so it
 * may be installed by a step listed before or after `jobs()`. Without one,
 * a run does nothing more than it always did.
 */
import type { WorkTelemetry } from '../context/work-telemetry.js';
import type { JobOrigin } from './define-job.js';

/** A run about to start. */
export interface JobRun {
  /** The task's name. */
  readonly name: string;
  /** `job`, `schedule` (a scheduled task) or `listener` (an asynchronous listener). */
  readonly kind: 'job' | 'schedule' | 'listener';
  /** The queue backend's job ID (decimal string). */
  readonly id: string;
  /** This attempt, from 1. */
  readonly attempt: number;
  readonly maxAttempts: number;
  /** Who and what queued it (its trace context included, when the queuing work was traced). */
  readonly origin: JobOrigin;
}

/** What observes the runs of an app's tasks. */
export interface JobRunObserver {
  /**
   * A run starts.
   * @returns its observation, or `undefined` to leave this run alone.
   */
  runStarted(run: JobRun): JobRunObservation | undefined;
}

/** One observed run. Its methods never throw. */
export interface JobRunObservation {
  /** What the task's code reports to (the run's execution context `telemetry`), if anything. */
  readonly work: WorkTelemetry | undefined;
  /** Run the task inside the run's trace. @returns what `run` returns. */
  within<T>(run: () => T): T;
  /** Fields the run's log lines carry (`trace_id`, `span_id`), or `undefined`. */
  logFields(): Readonly<Record<string, string>> | undefined;
  /** The run ended: `error` is what it failed with (`undefined`: it succeeded). Called once. */
  finished(error: unknown): void;
}

const observers = new WeakMap<object, JobRunObserver>();

/**
 * Have `observer` told about every task run of the app whose services these are.
 * @throws {Error} when the app already has one (one per app).
 */
export function observeJobRuns(services: object, observer: JobRunObserver): void {
  if (observers.has(services)) throw new Error('observeJobRuns: this app already has a job run observer.');
  observers.set(services, observer);
}

/** The job run observer of the app whose services these are, if any. @internal */
export function jobRunObserverOf(services: object): JobRunObserver | undefined {
  return observers.get(services);
}
