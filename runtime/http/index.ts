/**
 * The HTTP runtime core (docs/spec.md 4, 4.5, 4.6, 7; ARCHITECTURE.md "Request flow").
 *
 * Boot code calls {@link createHttpServer} with the generated route table,
 * the app's handlers and middleware, services and settings, then `listen`s.
 * Handlers and middleware are typed by {@link RouteHandler} and
 * {@link Middleware} and receive a {@link RequestContext}.
 */
export { createHttpServer } from './server.js';
export type { HttpServerOptions, AppEnvironment, ReadinessReport } from './server-options.js';
// `export type *`, not a named re-export: an app's (or generated code's)
// `declare module 'bindery/http' { interface Services { … } }` then merges
// into the interface RequestContext is typed by, also from an installed
// package's .d.ts files (docs/package.md).
export type * from './context.js';
export type { RouteHandler, HandlerFn, Middleware, AroundMiddleware, BeforeMiddleware } from './handler.js';
export type { BeforeBodyCheck } from './before-body.js';
export { decideClientKind, isJsonType } from './client-kind.js';
export { requestIdFor, REQUEST_ID_HEADER } from './request-id.js';
export { securityHeaders, type HeaderPair, type SecurityHeaderOptions } from './security-headers.js';
export { DEFAULT_CONTENT_SECURITY_POLICY, cspHash } from '../config/content-security-policy.js';
export { queryOverride } from './method-override.js';
export { HEALTH_PATHS } from './health.js';
export { clientFieldErrors } from './error-response.js';
export { apiDocs, apiDocsSettings, API_DOCS_CSP, type ApiDocsOptions } from './api-docs-step.js';
export { requireService, ServiceNotSetUpError } from './require-service.js';
export { observationOf, type PipelineStage, type RequestObservation, type RequestObserver } from './request-observer.js';
