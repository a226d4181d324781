/**
 * The execution context (docs/audit.md): who is acting and through what
 * (`Actor`, `Via`), carried across awaits; `withActor` runs code as another
 * actor, `currentContext` reads it. The work's telemetry contract
 * (`WorkTelemetry`, docs/observability.md) travels with it.
 */
export * from './execution-context.js';
export type { ListenerWork, MailWork, QueuedWork, TraceCarrier, WorkTelemetry } from './work-telemetry.js';
