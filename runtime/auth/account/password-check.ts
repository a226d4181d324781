/**
 * Checking the signed-in user's password again (docs/auth.md "Password
 * confirmation"): to confirm an action, to change the password, to sign out
 * other browsers. Throttled per account like a login, and answered as a
 * field error.
 */
import type { Cache } from '../../cache/cache.js';
import { HttpError } from '../../errors/http-error.js';
import { VALIDATION_DETAIL } from '../../errors/validation-error.js';
import type { AuthService } from '../auth-service.js';
import { THROTTLE_WINDOW_MS } from '../login-throttle.js';

/** The field message of a wrong password (Fortify's wording). */
export const PASSWORD_INCORRECT = 'The provided password was incorrect.';

/** What {@link checkPassword} needs. */
export interface PasswordCheckParts {
  readonly auth: AuthService;
  readonly cache: Cache;
  /** Checks allowed per account in a minute (`AUTH_THROTTLE`). */
  readonly limit: number;
  readonly now: () => number;
}

/**
 * Check `password` against `user`'s stored hash.
 *
 * Every check counts towards the account's limit (one minute window,
 * `limit` checks, key `auth:password:<id>`); past it the password is not
 * checked. A right password clears the count.
 *
 * @param field the field the error is reported on (`password`, `current_password`).
 * @throws {HttpError} 422 `BINDERY_PASSWORD_INCORRECT` on `field` for a wrong password.
 * @throws {HttpError} 422 `BINDERY_AUTH_THROTTLED` on `field` past the limit (how many seconds to wait).
 */
export async function checkPassword(parts: PasswordCheckParts, user: unknown, password: string, field: string): Promise<void> {
  const { auth, cache } = parts;
  const id = auth.users.idOf(user);
  const key = `auth:password:${id}`;
  const state = await cache.increment(key, THROTTLE_WINDOW_MS);
  if (state.count > parts.limit) {
    const wait = Math.max(1, Math.ceil((state.resetAt - parts.now()) / 1000));
    throw new HttpError('BINDERY_AUTH_THROTTLED', VALIDATION_DETAIL, {
      fieldErrors: { [field]: `Too many attempts. Please try again in ${wait} second${wait === 1 ? '' : 's'}.` },
    });
  }
  if (!(await auth.verifyPassword(auth.users.passwordHashOf(user), password))) {
    throw new HttpError('BINDERY_PASSWORD_INCORRECT', VALIDATION_DETAIL, { fieldErrors: { [field]: PASSWORD_INCORRECT } });
  }
  await cache.forget(key);
}
