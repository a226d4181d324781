/**
 * Sessions (docs/spec.md 2.3, 3, 5.3, 7 rule 6, 8, 9; docs/sessions.md): the
 * `session()` setup step, `ctx.session`, drivers, and the form round trip.
 */
import './context.js';

export { session, type SessionStepOptions } from './session-step.js';
export { Session, type SessionUser } from './session.js';
export type { SessionService } from './session-service.js';
export type {
  SessionDriver,
  SessionDriverContext,
  SessionStore,
  StoredSession,
} from './session-store.js';
export { cookieDriver } from './drivers/cookie-driver.js';
export { databaseDriver } from './drivers/database-driver.js';
export type { SessionSettings } from './settings.js';
export { backTarget, oldInput, roundTripErrors } from './form-round-trip.js';
