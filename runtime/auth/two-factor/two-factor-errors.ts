/**
 * The field errors of two-factor codes (codes in runtime/errors/codes.ts,
 * causes in docs/errors.md; Fortify's wording).
 */
import { HttpError } from '../../errors/http-error.js';
import { VALIDATION_DETAIL } from '../../errors/validation-error.js';

/** The message of a wrong, used or late code. */
export const CODE_INVALID = 'The provided two factor authentication code was invalid.';
/** The message of a wrong or used recovery code. */
export const RECOVERY_CODE_INVALID = 'The provided two factor recovery code was invalid.';
/** The message when no two-factor login is pending (never started, or older than its ten minutes). */
export const LOGIN_EXPIRED = 'The two-factor login has expired or was not started. Please log in again.';

/** 422 `BINDERY_TWO_FACTOR_CODE_INVALID` on `field` with `message`. */
export function codeInvalid(
  field: 'code' | 'recovery_code',
  message: string = field === 'code' ? CODE_INVALID : RECOVERY_CODE_INVALID,
): HttpError {
  return new HttpError('BINDERY_TWO_FACTOR_CODE_INVALID', VALIDATION_DETAIL, { fieldErrors: { [field]: message } });
}

/** 422 `BINDERY_TWO_FACTOR_THROTTLED` on `field`, saying how long to wait. */
export function codeThrottled(field: 'code' | 'recovery_code', seconds: number): HttpError {
  return new HttpError('BINDERY_TWO_FACTOR_THROTTLED', VALIDATION_DETAIL, {
    fieldErrors: { [field]: `Too many two-factor attempts. Please try again in ${seconds} second${seconds === 1 ? '' : 's'}.` },
    headers: { 'retry-after': String(seconds) },
  });
}

/** `90 seconds`, `2 minutes`, `3 hours`: a wait, rounded up. */
export function formatWait(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  const [n, unit] =
    seconds < 120 ? [seconds, 'second'] : seconds < 7200 ? [Math.ceil(seconds / 60), 'minute'] : [Math.ceil(seconds / 3600), 'hour'];
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

/** 429 `BINDERY_TWO_FACTOR_LOCKED` on `code` with `Retry-After`: codes are locked out for `retryAfterMs` more (docs/auth.md "Two-factor lockout"). */
export function codeLocked(retryAfterMs: number): HttpError {
  const message = `Too many wrong two-factor codes. Codes are refused for ${formatWait(retryAfterMs)}; a recovery code still works.`;
  return new HttpError('BINDERY_TWO_FACTOR_LOCKED', message, {
    fieldErrors: { code: message },
    headers: { 'retry-after': String(Math.max(1, Math.ceil(retryAfterMs / 1000))) },
  });
}
