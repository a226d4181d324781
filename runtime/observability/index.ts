/**
 * Observability (docs/observability.md): the `observability()` setup step —
 * OpenTelemetry traces and metrics over OTLP, Prometheus `/metrics`, the
 * access log and the development dashboard at `/_bindery`.
 */
export { observability, type ObservabilityOptions } from './observability-step.js';
