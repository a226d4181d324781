/**
 * Password confirmation, "sudo mode" (docs/auth.md "Password confirmation"):
 * the session remembers when the signed-in user last typed their password;
 * routes declared with `confirmPassword` ask for it again once that is older
 * than their window.
 */
import type { Cache } from '../../cache/cache.js';
import type { RequestContext } from '../../http/context.js';
import { isLocalPath } from '../../results/local-path.js';
import type { AuthService } from '../auth-service.js';
import { recordAccountEvent } from '../account/account-audit.js';
import { checkPassword } from '../account/password-check.js';

/** Session key of the last confirmation, ms since the epoch (Fortify's `auth.password_confirmed_at`, in ms). */
export const CONFIRMED_AT_KEY = 'auth.password_confirmed_at';
/** Session key of the page to go back to after the confirm form. */
export const CONFIRM_INTENDED_KEY = 'auth.confirm_intended';

/** What a {@link PasswordConfirmation} is built from (the `passwordConfirmation()` step). */
export interface PasswordConfirmationOptions {
  readonly auth: AuthService;
  readonly cache: Cache;
  /** `AUTH_PASSWORD_TIMEOUT`, ms: the window of `confirmPassword: true`. */
  readonly timeoutMs: number;
  /** `AUTH_CONFIRM_URL`: the confirm form pages are sent to. */
  readonly confirmUrl: string;
  /** Checks per account a minute (`AUTH_THROTTLE`). */
  readonly throttle: number;
  readonly services: object;
  readonly now: () => number;
}

/** `ctx.services.passwordConfirmation`. */
export class PasswordConfirmation {
  /** `AUTH_PASSWORD_TIMEOUT`, ms. */
  readonly timeoutMs: number;
  /** `AUTH_CONFIRM_URL`. */
  readonly confirmUrl: string;
  readonly #o: PasswordConfirmationOptions;

  constructor(options: PasswordConfirmationOptions) {
    this.#o = options;
    this.timeoutMs = options.timeoutMs;
    this.confirmUrl = options.confirmUrl;
  }

  /** When this session last confirmed the password (ms since the epoch), or `null`. */
  confirmedAt(ctx: Pick<RequestContext, 'session'>): number | null {
    const at = ctx.session.get<unknown>(CONFIRMED_AT_KEY);
    return typeof at === 'number' && Number.isFinite(at) ? at : null;
  }

  /**
   * Whether the last confirmation is younger than `windowMs` (default
   * `AUTH_PASSWORD_TIMEOUT`). A time in the future (a clock moved back) does not count.
   */
  isConfirmed(ctx: Pick<RequestContext, 'session'>, windowMs: number = this.timeoutMs): boolean {
    const at = this.confirmedAt(ctx);
    if (at === null) return false;
    const age = this.#o.now() - at;
    return age >= 0 && age < windowMs;
  }

  /**
   * Check the signed-in user's password and, when right, note the time in
   * the session (audited as `auth.password_confirmed`).
   * @returns where to go back to: the page the confirm form was shown for (local paths only), else `AUTH_HOME_URL`.
   * @throws {HttpError} 422 on `password` (`BINDERY_PASSWORD_INCORRECT`, or `BINDERY_AUTH_THROTTLED` past `AUTH_THROTTLE` a minute).
   */
  async confirm(ctx: RequestContext, user: unknown, password: string): Promise<string> {
    const { auth } = this.#o;
    await checkPassword({ auth, cache: this.#o.cache, limit: this.#o.throttle, now: this.#o.now }, user, password, 'password');
    this.markConfirmed(ctx);
    await recordAccountEvent(this.#o.services, auth.users.idOf(user), { action: 'auth.password_confirmed' });
    const back = ctx.session.pull<unknown>(CONFIRM_INTENDED_KEY);
    return typeof back === 'string' && isLocalPath(back) ? back : auth.homeUrl;
  }

  /** Note a confirmation now (e.g. right after the user typed the password for another reason). */
  markConfirmed(ctx: Pick<RequestContext, 'session'>): void {
    ctx.session.put(CONFIRMED_AT_KEY, this.#o.now());
  }

  /**
   * `GET /user/confirmed-password-status`: `{ confirmed }` for a window of
   * `seconds` (default `AUTH_PASSWORD_TIMEOUT`), and how many seconds ago
   * the confirmation was (Fortify's `X-Retry-After` header) when confirmed.
   */
  status(ctx: Pick<RequestContext, 'session'>, seconds?: number): { confirmed: boolean; secondsAgo: number | null } {
    const windowMs = seconds === undefined ? this.timeoutMs : seconds * 1000;
    const confirmed = this.isConfirmed(ctx, windowMs);
    const at = this.confirmedAt(ctx);
    return { confirmed, secondsAgo: confirmed && at !== null ? Math.floor((this.#o.now() - at) / 1000) : null };
  }
}
