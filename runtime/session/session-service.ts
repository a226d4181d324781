/**
 * `ctx.services.sessions`: what the session layer offers other layers (the
 * accounts issue) outside a request's own session (docs/sessions.md "For the
 * accounts layer").
 */
import type { Encrypter } from '../crypto/encrypter.js';
import type { SessionManager } from './session-manager.js';
import type { StoredSession } from './session-store.js';

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
  /** True when the store can list a user's sessions (`listUser` gives them; `SESSION_DRIVER=database`). */
  readonly listable: boolean;
  /** The live sessions of `userId`, most recently used first; `undefined` when the store cannot list them (cookie sessions). */
  listUser(userId: string): Promise<StoredSession[] | undefined>;
  /** End one session of `userId` by its ID; resolves to whether it existed (false when the store cannot). */
  revokeUserSession(userId: string, id: string): Promise<boolean>;
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
    listable: typeof store.listUser === 'function',
    listUser: async (userId) => (store.listUser === undefined ? undefined : store.listUser(userId)),
    revokeUserSession: async (userId, id) => (store.revokeUserSession === undefined ? false : store.revokeUserSession(userId, id)),
  };
}
