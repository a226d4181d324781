/**
 * `ctx.session` and `ctx.services.sessions`, added to the request context by
 * declaration merging (runtime/http/context.ts; docs/sessions.md).
 */
import type { Session } from './session.js';
import type { SessionService } from './session-service.js';

declare module '../http/context.js' {
  interface RequestContext {
    /**
     * The request's session, read lazily (docs/sessions.md "Using the session").
     * @throws {BinderyError} `BINDERY_SESSION_NOT_STARTED` on a route without the `session` middleware.
     */
    readonly session: Session;
  }
  interface Services {
    /** The app-wide session service; present once `session()` is set up. */
    readonly sessions?: SessionService;
  }
}

export {};
