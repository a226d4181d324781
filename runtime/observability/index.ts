/**
 * Observability (docs/observability.md): the `observability()` setup step —
 * OpenTelemetry traces and metrics over OTLP, Prometheus `/metrics`, the
 * access log and the development dashboard at `/_bindery`.
 */
export { observability, type ObservabilityOptions } from './observability-step.js';
export { observabilitySettings } from './settings.js';
export { DURATION_BUCKETS } from './metrics.js';
export { PROMETHEUS_CONTENT_TYPE } from './metrics-endpoint.js';
