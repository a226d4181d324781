/**
 * `ctx.services.sessions`: what the session layer offers other layers (the
 * accounts issue) outside a request's own session (docs/sessions.md "For the
 * accounts layer").
 */
import type { Encrypter } from '../crypto/encrypter.js';
import type { SessionManager } from './session-manager.js';

/** The app-wide side of sessions. */
export interface SessionService {
  /** `SESSION_DRIVER`: `cookie`, `database` or an app driver. */
  readonly driver: string;
  /** True when sessions are kept server-side and can be revoked (`revokeUser` works). */
  readonly revocable: boolean;
  /** The encrypter over APP_KEY / APP_PREVIOUS_KEYS (remember-me cookie, emailed tokens use it too). */
  readonly encrypter: Encrypter;
  /** The session cookie's name (e.g. `__Host-app_session`). */
  readonly cookieName: string;
  /**
   * End every session of `userId` but `exceptId` (e.g. the current one after
   * a password reset). Resolves to the number ended, or `undefined` with the
   * cookie driver, where other sessions end when next used because the
   * password fingerprint no longer matches.
   */
  revokeUser(userId: string, exceptId?: string | null): Promise<number | undefined>;
}

/** The service of a session manager. */
export function sessionService(manager: SessionManager): SessionService {
  const store = manager.store;
  return {
    driver: manager.driver,
    revocable: typeof store.revokeUser === 'function',
    encrypter: manager.encrypter,
    cookieName: manager.cookieName,
    revokeUser: async (userId, exceptId = null) => (store.revokeUser === undefined ? undefined : store.revokeUser(userId, exceptId)),
  };
}
