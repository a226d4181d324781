/**
 * A user's sessions and devices (docs/auth.md "Sessions and devices"): the
 * list of their signed-in browsers, ending one, and signing out every other
 * browser with the password.
 */
import { createHash } from 'node:crypto';
import type { Cache } from '../../cache/cache.js';
import { NotFoundError } from '../../errors/not-found-error.js';
import type { RequestContext } from '../../http/context.js';
import type { SessionService } from '../../session/session-service.js';
import type { AuthService } from '../auth-service.js';
import { recordAccountEvent } from '../account/account-audit.js';
import { checkPassword } from '../account/password-check.js';

/** One signed-in browser of the user, as `GET /user/sessions` answers it. */
export interface DeviceSession {
  /** A public identifier of the session (a hash of its ID; the ID itself is never shown). */
  readonly id: string;
  /** When it signed in (RFC 3339), or `null` when unknown (cookie sessions). */
  readonly created_at: string | null;
  /** When it was last written (RFC 3339; refreshed at most every tenth of SESSION_LIFETIME). */
  readonly last_used_at: string;
  readonly ip_address: string | null;
  readonly user_agent: string | null;
  /** Whether it is the session of this request. */
  readonly current: boolean;
}

/** What {@link AccountDevices} is built from (the `devices()` step). */
export interface AccountDevicesOptions {
  readonly auth: AuthService;
  readonly sessions: SessionService;
  readonly cache: Cache;
  /** Password checks per account a minute (`AUTH_THROTTLE`). */
  readonly throttle: number;
  readonly services: object;
  readonly now: () => number;
}

/** The public identifier of a session ID: 22 base64url characters of its SHA-256. */
export function publicSessionId(id: string): string {
  return createHash('sha256').update(id).digest('base64url').slice(0, 22);
}

/** `ctx.services.devices`. */
export class AccountDevices {
  readonly #o: AccountDevicesOptions;

  constructor(options: AccountDevicesOptions) {
    this.#o = options;
  }

  /** Whether the whole list can be shown (`SESSION_DRIVER=database`); with cookie sessions only the current one is known. */
  get listable(): boolean {
    return this.#o.sessions.listable;
  }

  /**
   * The user's live sessions, most recently used first, the current one
   * marked. With a store that cannot list (cookie sessions) only this
   * request's session is known.
   */
  async list(ctx: RequestContext, user: unknown): Promise<DeviceSession[]> {
    const current = ctx.session.id;
    const stored = await this.#o.sessions.listUser(this.#o.auth.users.idOf(user));
    if (stored === undefined) {
      const agent = ctx.request.headers['user-agent'];
      return [
        {
          id: publicSessionId(current ?? ''),
          created_at: null,
          last_used_at: new Date(this.#o.now()).toISOString(),
          ip_address: ctx.request.ip,
          user_agent: typeof agent === 'string' ? agent.slice(0, 512) : null,
          current: true,
        },
      ];
    }
    return stored.map((s) => ({
      id: publicSessionId(s.id),
      created_at: new Date(s.startedAt).toISOString(),
      last_used_at: new Date(s.lastUsedAt).toISOString(),
      ip_address: s.ip,
      user_agent: s.userAgent,
      current: s.id === current,
    }));
  }

  /**
   * End one of the user's sessions by its public identifier (audited as
   * `auth.session_revoked`). Ending the current one signs this browser out.
   * @throws {NotFoundError} 404 when the user has no such session (another user's looks the same).
   */
  async revoke(ctx: RequestContext, user: unknown, publicId: string): Promise<void> {
    const userId = this.#o.auth.users.idOf(user);
    const stored = (await this.#o.sessions.listUser(userId)) ?? [];
    const target = stored.find((s) => publicSessionId(s.id) === publicId);
    if (target === undefined || !(await this.#o.sessions.revokeUserSession(userId, target.id))) {
      throw new NotFoundError('You have no session with this identifier (it may have ended already).');
    }
    if (target.id === ctx.session.id) await this.#o.auth.logout(ctx);
    await recordAccountEvent(this.#o.services, userId, { action: 'auth.session_revoked', details: { ip_address: target.ip } });
  }

  /**
   * "Sign out every other browser" (Fortify's other-browser-sessions): the
   * password is checked (throttled; 422 on `password`), the password hash
   * is renewed (same password, new salt) when the provider can write it, so
   * cookie sessions end through their fingerprint, every other server-side
   * session is deleted and the remember token replaced; this browser stays
   * signed in. Audited as `auth.other_browsers_signed_out`.
   * @returns how many server-side sessions were ended (`null` with cookie sessions).
   * @throws {HttpError} 422 on `password` (`BINDERY_PASSWORD_INCORRECT`, `BINDERY_AUTH_THROTTLED`).
   */
  async signOutOtherBrowsers(ctx: RequestContext, user: unknown, password: string): Promise<number | null> {
    const { auth } = this.#o;
    await checkPassword({ auth, cache: this.#o.cache, limit: this.#o.throttle, now: this.#o.now }, user, password, 'password');
    const userId = auth.users.idOf(user);
    let current = user;
    if (auth.users.writePasswordHash !== undefined) {
      await auth.users.writePasswordHash(user, await auth.hashPassword(password));
      current = (await auth.users.findById(userId)) ?? user;
    }
    const before = this.#o.sessions.listable ? ((await this.#o.sessions.listUser(userId)) ?? []).length : null;
    await auth.signOutEverywhere(current, { except: ctx });
    const ended = before === null ? null : Math.max(0, before - 1);
    await recordAccountEvent(this.#o.services, userId, { action: 'auth.other_browsers_signed_out', details: { sessions: ended } });
    return ended;
  }
}
