/**
 * Errors of the auth core (codes in `runtime/errors/codes.ts`, causes and
 * fixes in `docs/errors.md`).
 */
import { HttpError } from '../errors/http-error.js';
import { VALIDATION_DETAIL } from '../errors/validation-error.js';
import { CodedError } from '../errors/coded-error.js';

/** The message of a failed login (unknown account or wrong password alike; docs/spec.md 5.1 rule 6). */
export const LOGIN_FAILED_MESSAGE = 'These credentials do not match our records.';

/**
 * 422 on `email`: the login and password do not match an account (docs/spec.md 7
 * rule 7). A browser form goes back to the login page with it.
 */
export class LoginFailedError extends HttpError {
  constructor() {
    super('BINDERY_AUTH_FAILED', VALIDATION_DETAIL, {
      fieldErrors: { email: LOGIN_FAILED_MESSAGE },
      fieldMessages: { email: { key: 'auth.failed' } },
    });
  }

  override get name(): string {
    return 'LoginFailedError';
  }
}

/** 422 on `email`: too many attempts; the password was not checked (docs/spec.md 5.1 rule 8). */
export class LoginThrottledError extends HttpError {
  /** Seconds until the window ends. */
  readonly retryAfter: number;

  constructor(retryAfter: number) {
    super('BINDERY_AUTH_THROTTLED', VALIDATION_DETAIL, {
      fieldErrors: { email: `Too many login attempts. Please try again in ${retryAfter} second${retryAfter === 1 ? '' : 's'}.` },
      fieldMessages: { email: { key: 'auth.throttled', values: { n: String(retryAfter), count: retryAfter } } },
    });
    this.retryAfter = retryAfter;
  }

  override get name(): string {
    return 'LoginThrottledError';
  }
}

/** A boot or programming error of the auth setup (`BINDERY_AUTH_MIDDLEWARE_MISSING`, `BINDERY_AUTH_REMEMBER_UNSUPPORTED`). */
export class AuthSetupError extends CodedError {}

/** 403: `verifyCredentials` on an account with a second factor (docs/tokens.md "Issuing a token at login"). */
export class SecondFactorRequiredError extends HttpError {
  constructor() {
    super('BINDERY_AUTH_SECOND_FACTOR_REQUIRED', 'This account has a second factor: sign in on the web to use it.');
  }

  override get name(): string {
    return 'SecondFactorRequiredError';
  }
}
