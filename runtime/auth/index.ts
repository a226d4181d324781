/**
 * Authentication (docs/spec.md 2.1, 2.2, 5; docs/auth.md): who is making the
 * request (`ctx.auth`), the user lookups an app supplies, the `auth()` setup
 * step with its middleware (`auth`, `require`, `guest`), the auth service
 * (`ctx.services.auth`), passwords and the remember-me cookie.
 */
import '../http/auth-context.js';

export { RequestAuth, type AuthVia, type RequestToken } from '../context/request-auth.js';
export { normalizeLogin, type UserProvider } from './user-provider.js';
export type { AuthService, LoginOptions } from './auth-service.js';
export { authService } from './auth-service-of.js';
export { auth, type AuthStepOptions, type UserProviderContext } from './auth-step.js';
export { PasswordHasher } from './passwords/index.js';
export { LoginFailedError, LoginThrottledError, SecondFactorRequiredError } from './errors.js';
export {
  loginSucceeded,
  loginFailed,
  loggedOut,
  type LoginMethod,
  type LoginSucceededPayload,
  type LoginFailedPayload,
  type LogoutPayload,
} from './events.js';
