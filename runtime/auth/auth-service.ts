/**
 * The auth service (`ctx.services.auth`): signing in and out, passwords,
 * and ending a user's other sessions (docs/spec.md 5.1, 5.2, 3 "Session" and
 * "Remember-me" rows). Implemented by the `auth()` setup step.
 */
import type { RequestContext } from '../http/context.js';
import type { UserProvider } from './user-provider.js';
import type { UntypedUser } from '../context/request-auth.js';
import type { LoginMethod } from './events.js';

/** Options of {@link AuthService.login}. */
export interface LoginOptions {
  /** Set the remember-me cookie (docs/spec.md 5.2); without it, a remember cookie is cleared. */
  readonly remember?: boolean;
  /** How the user proved who they are, for the `session:login_succeeded` event (default `direct`). */
  readonly method?: LoginMethod;
}

/**
 * A second factor asked for after the password (docs/auth.md "Two-factor
 * authentication"); the `twoFactor()` step registers one with
 * {@link AuthService.useSecondFactor}.
 */
export interface SecondFactorGate<U = UntypedUser> {
  /** Whether `user` must pass the second factor before being signed in. */
  required(user: U): Promise<boolean>;
  /** Start the pending login of `user` in this request's session (not signed in). */
  challenge(ctx: RequestContext, user: U, options: { readonly remember: boolean }): Promise<void>;
}

export interface AuthService<U = UntypedUser> {
  /** The app's user lookups. */
  readonly users: UserProvider<U>;

  /** `AUTH_LOGIN_URL` (default `/login`): where guests asking for a page are sent. */
  readonly loginUrl: string;

  /** `AUTH_HOME_URL` (default `/dashboard`): where signed-in users are sent from guest pages. */
  readonly homeUrl: string;

  /**
   * Where to go after signing in: the page a guest asked for before being
   * sent to log in (taken out of the session; local paths only), else
   * {@link homeUrl}.
   */
  intendedUrl(ctx: RequestContext): string;

  /**
   * Check a login and password and sign the user in (docs/spec.md 5.1 rules 6, 8, 9):
   * throttled per login+IP and per IP, same error and about the same time for
   * an unknown account and a wrong password, hash upgraded when the writer is
   * supplied, session regenerated. When a second factor is registered
   * ({@link useSecondFactor}) and the account has one, the user is not
   * signed in: the session holds a pending login and `ctx.auth` stays a
   * guest (check `ctx.auth.signedIn` after the call).
   * @throws {ValidationError} on `email` ("These credentials do not match our records." / "Too many login attempts. Please try again in N seconds.").
   */
  attempt(ctx: RequestContext, login: string, password: string, options?: LoginOptions): Promise<U>;

  /**
   * Check a login and password without signing anyone in: for an API that
   * issues a token at login (docs/tokens.md "Issuing a token at login").
   * Throttled like {@link attempt} (per login+IP and per IP, one attempt at a
   * time per address), the same error and about the same time for an
   * unknown account and a wrong password, the hash upgraded when the writer
   * is supplied. Needs no session.
   * @returns the user.
   * @throws {ValidationError} on `email` (`LoginFailedError`: "These credentials do not match our records."; `LoginThrottledError`: "Too many login attempts…", with `Retry-After`).
   * @throws {HttpError} 403 `BINDERY_AUTH_SECOND_FACTOR_REQUIRED` when the account has a second factor (a password alone is not enough).
   */
  verifyCredentials(ctx: RequestContext, login: string, password: string): Promise<U>;

  /** Sign `user` in to this request's session: regenerate the session, store the user ID and password fingerprint, set or clear the remember-me cookie. */
  login(ctx: RequestContext, user: U, options?: LoginOptions): Promise<void>;

  /**
   * Sign `user` in after another proof of identity than the password (an
   * external provider's callback): {@link login}, unless the account has a
   * second factor ({@link useSecondFactor}) — then, as after a right
   * password in {@link attempt}, the session holds a pending login finished
   * by a code and `ctx.auth` stays a guest (check `ctx.auth.signedIn`).
   */
  loginWithSecondFactor(ctx: RequestContext, user: U, options?: LoginOptions): Promise<void>;

  /** Sign out: empty the session and replace the user's remember token (every remembered browser is signed out — docs/spec.md 5.2). */
  logout(ctx: RequestContext): Promise<void>;

  /** Hash a password with argon2id (19 MiB, 2 passes); at most one hash per CPU at a time. */
  hashPassword(plain: string): Promise<string>;

  /** Compare a password with a stored argon2id or bcrypt hash (bcrypt: first 72 bytes). Never throws for a malformed hash: false. */
  verifyPassword(hash: string, plain: string): Promise<boolean>;

  /** The fingerprint of a password hash kept in the session (never the hash itself): a change ends other sessions on their next request. */
  fingerprint(hash: string): string;

  /**
   * Ask `gate` after every right password of {@link attempt} (one gate per
   * app; the `twoFactor()` step registers it).
   * @throws {Error} when a gate is registered already.
   */
  useSecondFactor(gate: SecondFactorGate<U>): void;

  /**
   * End every session and remembered browser of `user` except the current
   * request's (after a password reset): replace the remember token, revoke
   * server-side sessions when the driver can. Cookie sessions end through the
   * fingerprint on their next request.
   */
  signOutEverywhere(user: U, options?: { readonly except?: RequestContext }): Promise<void>;
}

declare module '../http/context.js' {
  interface Services {
    /** Present once `auth()` is set up. */
    readonly auth?: AuthService;
  }
}
