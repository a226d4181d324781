/**
 * `ctx.auth` on the request context (declaration merging, like `ctx.session`);
 * the value lives in runtime/context so the HTTP layer needs nothing from auth.
 */
import type { RequestAuth } from '../context/request-auth.js';

declare module './context.js' {
  interface RequestContext {
    /**
     * Who is making the request (docs/auth.md). Set by the `auth` (session)
     * or `token` (bearer) middleware; a guest on routes without them.
     */
    auth: RequestAuth<any>;
  }
}

export {};
