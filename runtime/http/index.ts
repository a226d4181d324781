/**
 * The HTTP runtime core (docs/spec.md 4, 4.5, 4.6, 7; ARCHITECTURE.md "Request flow").
 *
 * Handlers and middleware are typed by {@link RouteHandler} and
 * {@link Middleware} and receive a {@link RequestContext}; `requireService`
 * reaches a service a setup step provides.
 */
// The request context's members that other folders declare (`ctx.auth`, `ctx.can` / `authorize` / `scope`).
import './auth-context.js';
import './policy-context.js';
import './locale-context.js';

export type { AppEnvironment, ReadinessReport } from './server-options.js';
// `export type *`, not a named re-export: an app's (or generated code's)
// `declare module 'bindery/http' { interface Services { … } }` then merges
// into the interface RequestContext is typed by, also from an installed
// package's .d.ts files (docs/package.md).
export type * from './context.js';
export type { RouteHandler, HandlerFn, Middleware, AroundMiddleware, BeforeMiddleware } from './handler.js';
export type { BeforeBodyCheck } from './before-body.js';
export { apiDocs, type ApiDocsOptions } from './api-docs-step.js';
export { requireService, ServiceNotSetUpError } from './require-service.js';
