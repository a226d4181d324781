/**
 * Authentication (docs/spec.md 2.1, 2.2, 5; docs/auth.md): who is making the
 * request (`ctx.auth`), the user lookups an app supplies, the `auth()` setup
 * step with its middleware (`auth`, `require`, `guest`), the auth service
 * (`ctx.services.auth`), passwords and the remember-me cookie.
 */
import '../http/auth-context.js';

export { RequestAuth, GUEST, type AuthVia, type RequestAuthOptions, type RequestToken } from '../context/request-auth.js';
export { normalizeLogin, type UserProvider } from './user-provider.js';
export type { AuthService, LoginOptions } from './auth-service.js';
export { authService } from './auth-service-of.js';
export { auth, type AuthStepOptions, type UserProviderContext } from './auth-step.js';
export { authSettings, isLocalPath, localPathSetting, type AuthSettings } from './settings.js';
export { SessionAuth, INTENDED_URL_KEY } from './session-auth.js';
export { sessionGuard, requireGuard, guestGuard } from './guards.js';
export { checkGuardedRoutes, AUTHENTICATING_MIDDLEWARE, GUARD_MIDDLEWARE } from './route-check.js';
export { LoginThrottle, THROTTLE_WINDOW_MS, type ThrottleLimits } from './login-throttle.js';
export { PasswordFingerprints, type FingerprintMatch } from './password-fingerprint.js';
export { RememberCookie, REMEMBER_COOKIE, REMEMBER_PURPOSE, newRememberToken, type RememberPayload } from './remember-cookie.js';
export { PasswordHasher, ARGON2_DEFAULTS, hashKind, Semaphore, type Argon2Params, type HashKind } from './passwords/index.js';
export { AuthSetupError, LoginFailedError, LoginThrottledError, LOGIN_FAILED_MESSAGE, SecondFactorRequiredError } from './errors.js';
export {
  loginSucceeded,
  loginFailed,
  loggedOut,
  type LoginMethod,
  type LoginSucceededPayload,
  type LoginFailedPayload,
  type LogoutPayload,
} from './events.js';
