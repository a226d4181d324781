/**
 * Authentication (SPEC.md 2.1, 2.2, 5; docs/auth.md): who is making the
 * request (`ctx.auth`), the user lookups an app supplies, and the guards.
 */
import './context.js';

export { RequestAuth, GUEST, type AuthVia, type RequestAuthOptions, type RequestToken } from './request-auth.js';
export { normalizeLogin, type UserProvider } from './user-provider.js';
