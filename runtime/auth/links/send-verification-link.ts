/**
 * Mailing a verification link from a handler (docs/spec.md 4.1 "POST /register …
 * sends a verification link by email"; docs/mail.md).
 */
import { BinderyError } from '../../errors/bindery-error.js';
import { requireService } from '../../http/require-service.js';
import type { RequestContext } from '../../http/context.js';
import type { AccountLinks } from './account-links.js';
import './links-step.js';

/**
 * The account links of the app.
 * @throws {ServiceNotSetUpError} `BINDERY_SERVICE_NOT_SET_UP` when the app's setup list lacks `links()`.
 */
export function accountLinksOf(ctx: Pick<RequestContext, 'services'>): AccountLinks {
  return requireService(ctx.services, 'accountLinks', 'mail() and links() (after auth())');
}

/**
 * Mail `user` a link that verifies their current address: an absolute URL
 * on `APP_URL` (path `/verify-email`) with a token encrypted with `APP_KEY`,
 * valid for `AUTH_VERIFY_TTL` (24h). Suppressed addresses are skipped by the
 * mailer.
 *
 * A mail that cannot be sent (SMTP down, `BINDERY_MAIL_FAILED`) does not fail
 * the caller: the error is logged and the user can ask for a new link
 * (`POST /verify-email/resend`). So registration never fails because of mail.
 *
 * @param user the user as the app's `UserProvider` returns it (the address is read from its `email` property).
 * @throws {ServiceNotSetUpError} `BINDERY_SERVICE_NOT_SET_UP` without `links()` in the setup list (a programming error).
 * @example
 *   const user = await createUser(input);
 *   await sendVerificationLink(ctx, user);
 *   await ctx.services.auth!.login(ctx, user);
 */
export async function sendVerificationLink(ctx: Pick<RequestContext, 'services' | 'log'>, user: unknown): Promise<void> {
  const links = accountLinksOf(ctx);
  try {
    await links.sendVerification(user);
  } catch (error) {
    if (!(error instanceof BinderyError && error.code === 'BINDERY_MAIL_FAILED')) throw error;
    ctx.log.error({ err: error, code: error.code }, `the verification mail could not be sent: ${error.message}`);
  }
}
