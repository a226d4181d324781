/**
 * An app's observability at run time (docs/observability.md): it observes
 * the requests (runtime/http/request-observer.ts), the SQL statements of the
 * app's pool (runtime/db/query-observer.ts) and the job runs
 * (runtime/jobs/job-observer.ts), and hands each to what is on — traces,
 * metrics, the access log, the dashboard's records.
 *
 * Requests it leaves alone: the health probes and its own routes (`/metrics`,
 * the dashboard), so that probing and looking do not fill what is looked at.
 */
import type { FastifyRequest } from 'fastify';
import { currentContext } from '../context/execution-context.js';
import type { QueryFinished, QueryObserver } from '../db/query-observer.js';
import type { RequestObservation, RequestObserver } from '../http/request-observer.js';
import type { JobRun, JobRunObservation, JobRunObserver } from '../jobs/job-observer.js';
import type { RouteDefinition } from '../routing/route-table.js';
import { ObservedRequest } from './observed-request.js';
import { ObservedRun } from './observed-run.js';
import type { TelemetryParts } from './telemetry-parts.js';
import { WorkScope } from './work-scope.js';

/** The name prefix of the routes the `observability()` step adds (`observability:metrics`, `observability:dashboard`, …). */
export const OWN_ROUTE_PREFIX = 'observability:';

/** See the module doc. */
export class AppTelemetry implements RequestObserver, QueryObserver, JobRunObserver {
  readonly parts: TelemetryParts;
  /** Spans per pipeline stage: when tracing, unless turned off. */
  readonly stages: boolean;

  /** @param stageSpans a span per pipeline stage when tracing (`observability({ stageSpans })`). */
  constructor(stageSpans: boolean, parts: TelemetryParts) {
    this.parts = parts;
    this.stages = stageSpans && parts.tools.tracer !== null;
  }

  observe(request: FastifyRequest, route: RouteDefinition | null): RequestObservation | undefined {
    if (route === null ? !request.is404 : route.name.startsWith(OWN_ROUTE_PREFIX)) return undefined;
    return new ObservedRequest(this.parts, request, route);
  }

  queryStarted(text: string): QueryFinished | undefined {
    const work = currentContext()?.telemetry;
    return work instanceof WorkScope ? work.query(text) : undefined;
  }

  runStarted(run: JobRun): JobRunObservation | undefined {
    return new ObservedRun(this.parts, run);
  }
}
