/**
 * The payload envelope: what bindery stores as a job's JSON payload, whatever
 * the queue backend (docs/jobs.md "What is stored").
 *
 * ```json
 * { "bindery": 1, "payload": { … }, "origin": { "actor": { "type": "user", "id": "42" }, "requestId": "…", "via": { "kind": "request", "name": "POST /x" } } }
 * ```
 *
 * A job queued by traced work also carries its W3C trace context,
 * `"trace": { "traceparent": "00-…-…-01" }` in `origin`.
 *
 * A job queued by other means (graphile-worker's SQL `add_job`, another tool)
 * has no envelope: its whole payload is the payload and its origin is `system`.
 */
import { SYSTEM_ACTOR, type Actor } from '../context/execution-context.js';
import type { JobOrigin } from './define-job.js';

/** The stored form. */
export interface JobEnvelope {
  readonly bindery: 1;
  readonly payload: unknown;
  readonly origin: JobOrigin;
}

/** Wrap a payload with its origin. */
export function wrapPayload(payload: unknown, origin: JobOrigin): JobEnvelope {
  return { bindery: 1, payload, origin };
}

function isActor(value: unknown): value is Actor {
  return (
    typeof value === 'object' && value !== null && typeof (value as Actor).type === 'string' && typeof (value as Actor).id === 'string'
  );
}

/** The payload and origin of a stored payload; tolerant of payloads queued without bindery. */
export function unwrapPayload(stored: unknown): { payload: unknown; origin: JobOrigin } {
  if (typeof stored === 'object' && stored !== null && (stored as { bindery?: unknown }).bindery === 1 && 'payload' in stored) {
    const envelope = stored as { payload: unknown; origin?: { actor?: unknown; requestId?: unknown; via?: unknown; trace?: unknown } };
    const o = envelope.origin ?? {};
    const via = o.via as { kind?: unknown; name?: unknown } | undefined;
    const trace = o.trace as { traceparent?: unknown; tracestate?: unknown } | undefined;
    return {
      payload: envelope.payload,
      origin: {
        actor: isActor(o.actor) ? { type: o.actor.type, id: o.actor.id } : SYSTEM_ACTOR,
        ...(typeof o.requestId === 'string' ? { requestId: o.requestId } : {}),
        ...(via && typeof via.kind === 'string' && typeof via.name === 'string' ? { via: { kind: via.kind, name: via.name } } : {}),
        ...(trace && typeof trace.traceparent === 'string'
          ? {
              trace: {
                traceparent: trace.traceparent,
                ...(typeof trace.tracestate === 'string' ? { tracestate: trace.tracestate } : {}),
              },
            }
          : {}),
      },
    };
  }
  return { payload: stored, origin: { actor: SYSTEM_ACTOR } };
}
