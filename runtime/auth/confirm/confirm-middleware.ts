/**
 * The middleware behind a route's `confirmPassword` (docs/auth.md "Password
 * confirmation"): the HTTP server puts it last in the chain of every route
 * that declares the key (runtime/http/route-password-confirmation.ts).
 */
import { HttpError } from '../../errors/http-error.js';
import type { RequestContext } from '../../http/context.js';
import type { BeforeMiddleware } from '../../http/handler.js';
import { isLocalPath, sameHostPath } from '../../results/local-path.js';
import { redirect, type RedirectResult } from '../../results/result.js';
import { answersJson } from '../account/client-answer.js';
import { CONFIRM_INTENDED_KEY, type PasswordConfirmation } from './password-confirmation.js';

/** The detail of the 423. */
export const CONFIRMATION_REQUIRED = 'Password confirmation required: confirm your password (POST /user/confirm-password), then try again.';

/**
 * Lets a request through when the session confirmed the password within the
 * route's window. Otherwise a page or form is sent (303) to the confirm form
 * — a GET remembering itself, a form its page (the `Referer` on this site) —
 * and a JSON client gets 423 `BINDERY_PASSWORD_CONFIRMATION_REQUIRED`.
 */
export function confirmPasswordMiddleware(confirmation: PasswordConfirmation): BeforeMiddleware {
  return {
    before(ctx) {
      const declared = ctx.route.confirmPassword;
      if (declared === undefined) return undefined;
      const windowMs = declared === true ? confirmation.timeoutMs : declared;
      if (confirmation.isConfirmed(ctx, windowMs)) return undefined;
      return askForConfirmation(ctx, confirmation);
    },
  };
}

/**
 * The answer to a request that needs a fresh password confirmation and has
 * none (docs/auth.md "Password confirmation"): a page or form is sent (303)
 * to the confirm form — a GET remembering itself, a form its page (the
 * `Referer` on this site) — to come back to after the password.
 * @throws {HttpError} 423 `BINDERY_PASSWORD_CONFIRMATION_REQUIRED` for a JSON client (it confirms with `POST /user/confirm-password` and retries).
 */
export function askForConfirmation(ctx: RequestContext, confirmation: PasswordConfirmation): RedirectResult {
  if (answersJson(ctx)) throw new HttpError('BINDERY_PASSWORD_CONFIRMATION_REQUIRED', CONFIRMATION_REQUIRED);
  const request = ctx.request;
  let back: string | null = null;
  if (request.method === 'GET' || request.method === 'HEAD') back = isLocalPath(request.url) ? request.url : null;
  else if (typeof request.headers.referer === 'string') back = sameHostPath(request.headers.referer, request.headers.host ?? '');
  if (back !== null) ctx.session.put(CONFIRM_INTENDED_KEY, back);
  return redirect(confirmation.confirmUrl);
}
