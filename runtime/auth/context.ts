/**
 * `ctx.auth` on the request context (declaration merging, like `ctx.session`).
 */
import type { RequestAuth } from './request-auth.js';

declare module '../http/context.js' {
  interface RequestContext {
    /**
     * Who is making the request (docs/auth.md). Set by the `auth` (session)
     * or `token` (bearer) middleware; a guest on routes without them.
     */
    auth: RequestAuth<any>;
  }
}

export {};
