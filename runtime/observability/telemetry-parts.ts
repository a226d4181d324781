/**
 * What an app's observed requests and job runs share: the tracing tools,
 * the instruments, the dashboard's records and the access log — each
 * `null` when it is off (docs/observability.md "What is on when").
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Recorder } from './dashboard/records.js';
import type { AppMetrics } from './metrics.js';
import type { WorkTools } from './work-scope.js';

/** The instrumentation scope of bindery's spans and instruments. */
export const SCOPE = 'bindery';

export interface TelemetryParts {
  readonly tools: WorkTools;
  readonly metrics: AppMetrics | null;
  readonly recorder: Recorder | null;
  /** The logger of the access log (`HTTP_ACCESS_LOG=true`), else `null`. */
  readonly accessLog: FastifyBaseLogger | null;
}
