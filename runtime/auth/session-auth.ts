/**
 * The session side of authentication: `ctx.services.auth` (the
 * {@link AuthService} contract) and what the `auth` middleware does with the
 * session and the remember-me cookie (docs/spec.md 3 "Session" and "Remember-me"
 * rows, 5.1, 5.2; docs/auth.md).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { emitEvent } from '../events/events-step.js';
import type { RequestContext } from '../http/context.js';
import type { HttpRequestContext } from '../http/request-context.js';
import type { SessionService } from '../session/session-service.js';
import type { SessionUser } from '../session/session.js';
import type { AuthService, LoginOptions, SecondFactorGate } from './auth-service.js';
import { AuthSetupError, LoginFailedError, LoginThrottledError, SecondFactorRequiredError } from './errors.js';
import type { LoginMethod } from './events.js';
import type { LoginThrottle } from './login-throttle.js';
import { LANE_FULL, type AddressLanes } from './address-lanes.js';
import type { PasswordFingerprints } from './password-fingerprint.js';
import type { PasswordHasher } from './passwords/password-hasher.js';
import { newRememberToken, type RememberCookie } from './remember-cookie.js';
import { GUEST, RequestAuth } from '../context/request-auth.js';
import { isLocalPath } from './settings.js';
import { normalizeLogin, type UserProvider } from './user-provider.js';
import '../http/auth-context.js';

/** What {@link SessionAuth} is made of (built by the `auth()` step). */
export interface SessionAuthParts<U> {
  readonly users: UserProvider<U>;
  readonly hasher: PasswordHasher;
  readonly fingerprints: PasswordFingerprints;
  readonly remember: RememberCookie;
  readonly throttle: LoginThrottle;
  /** Per-address lanes of password checks (see address-lanes.ts). */
  readonly lanes: AddressLanes;
  readonly sessions: SessionService;
  /** The app's services (events are emitted through them). */
  readonly services: object;
  /** `AUTH_LOGIN_URL`. */
  readonly loginUrl: string;
  /** `AUTH_HOME_URL`. */
  readonly homeUrl: string;
}

/** Session key of the page a guest asked for before being sent to log in. */
export const INTENDED_URL_KEY = 'auth.intended';

/**
 * The auth service of an app with sessions. One per app; `auth()` makes it.
 */
export class SessionAuth<U> implements AuthService<U> {
  readonly users: UserProvider<U>;
  readonly loginUrl: string;
  readonly homeUrl: string;
  readonly #p: SessionAuthParts<U>;
  #secondFactor: SecondFactorGate<U> | undefined;

  constructor(parts: SessionAuthParts<U>) {
    this.users = parts.users;
    this.loginUrl = parts.loginUrl;
    this.homeUrl = parts.homeUrl;
    this.#p = parts;
  }

  /** The remember-me cookie of this app. */
  get remember(): RememberCookie {
    return this.#p.remember;
  }

  // ── AuthService ──

  intendedUrl(ctx: RequestContext): string {
    const intended = ctx.session.pull<unknown>(INTENDED_URL_KEY);
    return typeof intended === 'string' && isLocalPath(intended) ? intended : this.homeUrl;
  }

  async attempt(ctx: RequestContext, login: string, password: string, options: LoginOptions = {}): Promise<U> {
    if (options.remember === true) this.#needRememberLookups();
    const { user, userId, hash } = await this.#verify(login, password, ctx.request.ip);
    // An account with a second factor is not signed in yet: the session holds a pending login.
    if (await this.#challenged(ctx, user, options.remember === true)) return user;
    await this.#signIn(ctx, user, userId!, hash, options.remember === true, 'password');
    return user;
  }

  async loginWithSecondFactor(ctx: RequestContext, user: U, options: LoginOptions = {}): Promise<void> {
    if (!(await this.#challenged(ctx, user, options.remember === true))) await this.login(ctx, user, options);
  }

  /** When `user` must pass the second factor: start its pending login in this session and return true. */
  async #challenged(ctx: RequestContext, user: U, remember: boolean): Promise<boolean> {
    if (this.#secondFactor === undefined || !(await this.#secondFactor.required(user))) return false;
    await this.#secondFactor.challenge(ctx, user, { remember });
    return true;
  }

  async verifyCredentials(ctx: RequestContext, login: string, password: string): Promise<U> {
    const { user } = await this.#verify(login, password, ctx.request.ip);
    // A password alone does not sign in an account with a second factor (docs/tokens.md "Issuing a token at login").
    if (this.#secondFactor !== undefined && (await this.#secondFactor.required(user))) throw new SecondFactorRequiredError();
    return user;
  }

  /**
   * The account `password` belongs to, for a session login or a token
   * issued from a JSON handler alike: one attempt at a time per address,
   * counts and password check included (docs/auth.md "Throttling") — a flood
   * from one address waits in its own lane, costs no query or hash while it
   * waits, and is refused outright past AUTH_THROTTLE_IP waiting attempts. A
   * bcrypt or weaker argon2id hash is replaced (the fingerprint changes once:
   * other sessions end); the throttle is cleared. Returns the account as it
   * is now, with its ID and current hash.
   * @throws LoginThrottledError, or the login error of a wrong password
   */
  async #verify(login: string, password: string, ip: string) {
    const { users, throttle, hasher } = this.#p;
    const normalized = normalizeLogin(login);
    const checked = await this.#p.lanes.run(ip, () => this.#check(login, normalized, password, ip));
    if (checked === LANE_FULL) {
      await emitEvent(this.#p.services, 'session:login_failed', { login: normalized, userId: null, reason: 'throttled', ip });
      throw new LoginThrottledError(1);
    }
    const { user, userId, subject, hash } = checked;
    let verified = user;
    let current = hash;
    if (users.writePasswordHash !== undefined && hasher.needsUpgrade(hash)) {
      current = await hasher.hash(password);
      await users.writePasswordHash(user, current);
      verified = (await users.findById(userId!)) ?? user;
    }
    await throttle.clear(subject, ip);
    return { user: verified, userId, hash: current };
  }

  useSecondFactor(gate: SecondFactorGate<U>): void {
    if (this.#secondFactor !== undefined) throw new Error('A second factor is registered already: set up twoFactor() once.');
    this.#secondFactor = gate;
  }

  /**
   * The throttled part of a login, run in the address's lane: the address's
   * failure count, the lookup, the subject's count, the password check.
   * @returns the user when the password matches.
   * @throws {LoginThrottledError} past either limit (no password check).
   * @throws {LoginFailedError} for an unknown account or a wrong password.
   */
  async #check(
    login: string,
    normalized: string,
    password: string,
    ip: string,
  ): Promise<{ user: U; userId: string; subject: string; hash: string }> {
    const { users, throttle, hasher } = this.#p;
    const ipWait = await throttle.ipBlocked(ip);
    if (ipWait !== null) {
      await emitEvent(this.#p.services, 'session:login_failed', { login: normalized, userId: null, reason: 'throttled', ip });
      throw new LoginThrottledError(ipWait);
    }
    const user = await users.findByLogin(login);
    const userId = user === null ? null : users.idOf(user);
    // Spellings that resolve to one account share its count; unknown logins count by their normalized form.
    const subject = userId === null ? `login:${normalized}` : `user:${userId}`;
    const wait = await throttle.attempt(subject, ip);
    if (wait !== null) {
      await emitEvent(this.#p.services, 'session:login_failed', { login: normalized, userId, reason: 'throttled', ip });
      throw new LoginThrottledError(wait);
    }
    // An unknown account is checked against a dummy hash of the same cost, so it takes as long as a wrong password.
    const hash = user === null ? await hasher.dummyHash() : users.passwordHashOf(user);
    const ok = await hasher.verify(hash, password);
    if (user === null || !ok) {
      await throttle.failed(ip);
      await emitEvent(this.#p.services, 'session:login_failed', { login: normalized, userId, reason: 'credentials', ip });
      throw new LoginFailedError();
    }
    return { user, userId: userId!, subject, hash };
  }

  async login(ctx: RequestContext, user: U, options: LoginOptions = {}): Promise<void> {
    if (options.remember === true) this.#needRememberLookups();
    await this.#signIn(
      ctx,
      user,
      this.users.idOf(user),
      this.users.passwordHashOf(user),
      options.remember === true,
      options.method ?? 'direct',
    );
  }

  async logout(ctx: RequestContext): Promise<void> {
    const { users, remember } = this.#p;
    const id = ctx.auth.id;
    const user = await ctx.auth.user();
    // Every remembered browser is signed out (docs/spec.md 5.2, 3 "Remember-me": invalid).
    if (user !== null && users.writeRememberToken !== undefined) await users.writeRememberToken(user, newRememberToken());
    ctx.session.invalidate();
    if (remember.read(ctx.request) !== undefined) remember.clear(ctx.reply);
    ctx.auth = GUEST;
    if (id !== null && user !== null) await emitEvent(this.#p.services, 'session:logout', { userId: id, ip: ctx.request.ip });
  }

  hashPassword(plain: string): Promise<string> {
    return this.#p.hasher.hash(plain);
  }

  verifyPassword(hash: string, plain: string): Promise<boolean> {
    return this.#p.hasher.verify(hash, plain);
  }

  fingerprint(hash: string): string {
    return this.#p.fingerprints.of(hash);
  }

  async signOutEverywhere(user: U, options: { readonly except?: RequestContext } = {}): Promise<void> {
    const { users, sessions, fingerprints } = this.#p;
    const id = users.idOf(user);
    if (users.writeRememberToken !== undefined) await users.writeRememberToken(user, newRememberToken());
    const except = options.except === undefined ? undefined : (options.except as HttpRequestContext).sessionState;
    await sessions.revokeUser(id, except?.id ?? null);
    // The request that changed the password stays signed in: its fingerprint follows the new hash.
    if (except !== undefined && except.user?.id === id) except.setUser(id, fingerprints.of(users.passwordHashOf(user)));
  }

  // ── the `auth` middleware's work ──

  /**
   * Load the session's user for `ctx.auth` (once per request, on first use).
   * A user who is gone, or whose password hash no longer matches the
   * session's fingerprint (password changed elsewhere), ends the session:
   * it is emptied, this browser's remember-me cookie removed, and the
   * request continues as a guest.
   */
  async loadSessionUser(ctx: HttpRequestContext, slot: SessionUser): Promise<U | null> {
    const { users, fingerprints } = this.#p;
    const user = await users.findById(slot.id);
    if (user === null) {
      this.#endSession(ctx);
      return null;
    }
    const hash = users.passwordHashOf(user);
    const match = fingerprints.match(slot.fingerprint, hash);
    if (match === false) {
      this.#endSession(ctx);
      return null;
    }
    if (match === 'previous') ctx.session.setUser(slot.id, fingerprints.of(hash)); // APP_KEY rotated: store it under the new key
    return user;
  }

  /**
   * Sign the user of a remember-me cookie into a new session (docs/spec.md 5.2). A
   * cookie that does not open, names no user, or holds a token that is not
   * the user's current one is removed; the request stays a guest.
   */
  async signInFromCookie(ctx: HttpRequestContext, value: string): Promise<void> {
    const { users, remember } = this.#p;
    const payload = remember.open(value);
    const user = payload === null || users.readRememberToken === undefined ? null : await users.findById(payload.id);
    const stored = user === null ? null : await users.readRememberToken!(user);
    if (payload === null || user === null || stored === null || !sameToken(stored, payload.token)) {
      remember.clear(ctx.reply);
      return;
    }
    const session = ctx.session;
    session.regenerate();
    session.setUser(payload.id, this.#p.fingerprints.of(users.passwordHashOf(user)));
    ctx.auth = new RequestAuth<U>({ via: 'remember', id: payload.id, load: () => Promise.resolve(user) });
    await emitEvent(this.#p.services, 'session:login_succeeded', {
      userId: payload.id,
      method: 'remember',
      remember: true,
      ip: ctx.request.ip,
    });
  }

  // ── internals ──

  async #signIn(ctx: RequestContext, user: U, id: string, hash: string, remember: boolean, method: LoginMethod): Promise<void> {
    const { users } = this.#p;
    let token: string | null = null;
    if (remember) {
      // One token per user, shared by their remembered browsers; logout replaces it.
      token = await users.readRememberToken!(user);
      if (token === null || token === '') {
        token = newRememberToken();
        await users.writeRememberToken!(user, token);
      }
    }
    const session = ctx.session;
    session.regenerate();
    session.setUser(id, this.#p.fingerprints.of(hash));
    if (token !== null) this.#p.remember.issue(ctx.reply, { id, token });
    else if (this.#p.remember.read(ctx.request) !== undefined) this.#p.remember.clear(ctx.reply);
    ctx.auth = new RequestAuth<U>({ via: 'session', id, load: () => Promise.resolve(user) });
    await emitEvent(this.#p.services, 'session:login_succeeded', { userId: id, method, remember, ip: ctx.request.ip });
  }

  #endSession(ctx: HttpRequestContext): void {
    ctx.session.invalidate();
    if (this.#p.remember.read(ctx.request) !== undefined) this.#p.remember.clear(ctx.reply);
    ctx.auth = GUEST;
  }

  #needRememberLookups(): void {
    const { users } = this.#p;
    if (users.readRememberToken === undefined || users.writeRememberToken === undefined) {
      const missing = [
        users.readRememberToken === undefined ? 'readRememberToken' : '',
        users.writeRememberToken === undefined ? 'writeRememberToken' : '',
      ]
        .filter(Boolean)
        .join(' and ');
      throw new AuthSetupError(
        'BINDERY_AUTH_REMEMBER_UNSUPPORTED',
        `Remember-me was asked for, but the user provider given to auth({ users }) has no ${missing}; remember-me needs both (docs/spec.md 5.2). Add them, or do not offer "remember me".`,
      );
    }
  }
}

/** Compare two tokens in constant time (whatever their lengths). */
function sameToken(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}
