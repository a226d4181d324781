/**
 * Sessions (docs/spec.md 2.3, 3, 5.3, 7 rule 6, 8, 9; docs/sessions.md): the
 * `session()` setup step, `ctx.session`, drivers, and the form round trip.
 */
import './context.js';

export { session, SESSION_MIGRATIONS_DIR, type SessionStepOptions } from './session-step.js';
export { Session, ERRORS_KEY, OLD_INPUT_KEY, type SessionHost, type SessionUser } from './session.js';
export {
  createSessionManager,
  BUILT_IN_DRIVERS,
  MAX_COOKIE_BYTES,
  type SessionManager,
  type SessionManagerOptions,
} from './session-manager.js';
export { createSessionMiddleware } from './session-middleware.js';
export { sessionService, type SessionService } from './session-service.js';
export {
  TOO_LARGE,
  type SessionClient,
  type SessionDriver,
  type SessionDriverContext,
  type SessionStore,
  type StoredSession,
} from './session-store.js';
export { newSessionRecord, parseRecord, serializeRecord, type SessionRecord } from './session-record.js';
export { cookieDriver, SESSION_PURPOSE } from './drivers/cookie-driver.js';
export { databaseDriver, SESSION_ID_PURPOSE } from './drivers/database-driver.js';
export { sessionSettings, sessionCookieSecure, MIN_SESSION_LIFETIME_MS, type SessionSettings } from './settings.js';
export { readCookie, serializeSetCookie, type CookieAttributes } from './cookie-header.js';
export { backTarget, oldInput, roundTripErrors } from './form-round-trip.js';
export { SessionError } from './errors.js';
