/**
 * Handlers of the emailed account links (docs/spec.md 2.3, 3 "User email" and
 * "Password reset token", 4.1, 5.6, 7 rules 7–8, 8 "forgot-password route";
 * docs/mail.md): verify an address, ask for a reset link, reset the password.
 */
import type { Handlers } from '../../generated/handlers.js';
import { normalizeLogin } from 'bindery/auth';
import { accountLinksOf } from 'bindery/auth/links';
import type { Cache } from 'bindery/cache';
import { requireService, type RequestContext } from 'bindery/http';
import { hitRateLimit, rateLimitedError, rateLimitHeaders, type RateLimit } from 'bindery/rate-limit';
import { page, redirect, redirectToRoute } from 'bindery/results';
import { accounts, currentUser } from '../auth/users.js';

type LinksHandlers = Pick<
  Handlers,
  'links.verifyEmail' | 'links.resendVerification' | 'links.forgotForm' | 'links.forgot' | 'links.resetForm' | 'links.reset'
>;

/**
 * POST /forgot-password: 5 a minute per address and client (docs/spec.md 8):
 * counted per client too, so requests from someone else cannot use up the
 * address owner's own (docs/auth.md "Password reset"). Mails are coalesced
 * besides: at most one per address a minute, whoever asks.
 */
export const FORGOT_PASSWORD_LIMIT: RateLimit = { name: 'forgot-password', limit: 5, windowMs: 60_000 };
/** POST /verify-email/resend: 5 a minute per user. */
export const RESEND_VERIFICATION_LIMIT: RateLimit = { name: 'resend-verification', limit: 5, windowMs: 60_000 };

/** The one answer of POST /forgot-password, whether or not the account exists. */
export const FORGOT_PASSWORD_STATUS = 'If an account uses that address, we have emailed it a link to reset the password.';

function cacheOf(ctx: RequestContext): Cache {
  return requireService(ctx.services, 'cache', 'cache()');
}

/** Count a hit; 429 when over the limit, else the limit headers on the response. */
async function limit(ctx: RequestContext, rule: RateLimit, key: string, message: string): Promise<void> {
  const state = await hitRateLimit(cacheOf(ctx), rule, key);
  if (!state.allowed) throw rateLimitedError(state, message);
  ctx.reply.headers(rateLimitHeaders(state));
}

export const linksHandlers = {
  'links.verifyEmail': async (input, ctx) => {
    const outcome = await accountLinksOf(ctx).verifyEmail(input.token ?? '');
    ctx.session.flash('status', ctx.t(outcome === 'verified' ? 'app.flash.email_verified' : 'app.flash.email_was_verified'));
    return redirectToRoute('accounts.dashboard');
  },

  'links.resendVerification': async (_input, ctx) => {
    const user = await currentUser(ctx);
    const links = accountLinksOf(ctx);
    if (links.emailVerifiedAtOf(user) !== null) {
      ctx.session.flash('status', ctx.t('app.flash.email_already_verified'));
      return redirectToRoute('accounts.dashboard');
    }
    await limit(ctx, RESEND_VERIFICATION_LIMIT, String(user.id), ctx.t('app.errors.verification_throttled'));
    await links.sendVerification(user);
    ctx.session.flash('status', ctx.t('app.flash.verification_sent'));
    return redirectToRoute('accounts.dashboard');
  },

  'links.forgotForm': (_input, ctx) => page('auth/forgot-password', { title: ctx.t('app.title.forgot_password') }),

  'links.forgot': async (input, ctx) => {
    const email = normalizeLogin(input.email);
    await limit(ctx, FORGOT_PASSWORD_LIMIT, `${ctx.request.ip} ${email}`, ctx.t('app.errors.reset_throttled'));
    // Queued as a job whatever the address, so the answer takes as long for an unknown one (docs/auth.md).
    await accountLinksOf(ctx).requestReset(email);
    ctx.session.flash('status', ctx.t('app.flash.forgot_password'));
    return redirect(accounts(ctx).loginUrl);
  },

  'links.resetForm': (input, ctx) => page('auth/reset-password', { title: ctx.t('app.title.reset_password'), token: input.token ?? '' }),

  'links.reset': async (input, ctx) => {
    await accountLinksOf(ctx).resetPassword(input.token ?? '', input.password);
    ctx.session.flash('status', ctx.t('app.flash.password_reset'));
    return redirect(accounts(ctx).loginUrl);
  },
} satisfies LinksHandlers;
