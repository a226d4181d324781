/**
 * Mailing a verification link from a handler (SPEC.md 4.1 "POST /register …
 * sends a verification link by email"; docs/mail.md).
 */
import { BinderyError } from '../../errors/bindery-error.js';
import type { RequestContext } from '../../http/context.js';
import type { AccountLinks } from './account-links.js';
import './links-step.js';

/**
 * The account links of the app.
 * @throws {BinderyError} `BINDERY_LINKS_NOT_SET_UP` when the app's setup list lacks `links()`.
 */
export function accountLinksOf(ctx: Pick<RequestContext, 'services'>): AccountLinks {
  const links = ctx.services.accountLinks;
  if (links === undefined) {
    throw new BinderyError('BINDERY_LINKS_NOT_SET_UP', 'Account links were used, but links() is not set up: add mail() and links() after auth() in the setup list of app/main.ts.');
  }
  return links;
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
 * @throws {BinderyError} `BINDERY_LINKS_NOT_SET_UP` without `links()` in the setup list (a programming error).
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
