import type { AnyRequestAuth } from '../context/request-auth.js';

declare module './context.js' {
  interface RequestContext {
    /**
     * Who is making the request (docs/auth.md). Set by the `auth` (session)
     * or `token` (bearer) middleware; a guest on routes without them.
     */
    auth: AnyRequestAuth;
  }
}

export {};
