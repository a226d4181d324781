/**
 * Handlers of two-factor authentication (docs/auth.md "Two-factor
 * authentication"; schema/account-security.yaml), with Fortify's paths and
 * JSON answers.
 */
import type { Handlers } from '../../generated/handlers.js';
import 'bindery/auth/two-factor';
import { type RequestContext, requireService } from 'bindery/http';
import { noContent, page, redirect, redirectToRoute, text } from 'bindery/results';
import { accounts, currentUser } from '../auth/users.js';
import { answersJson, done } from './answer.js';

type TwoFactorHandlers = Pick<
  Handlers,
  | 'twoFactor.show'
  | 'twoFactor.enable'
  | 'twoFactor.confirm'
  | 'twoFactor.disable'
  | 'twoFactor.qrCode'
  | 'twoFactor.secretKey'
  | 'twoFactor.recoveryCodes'
  | 'twoFactor.regenerateCodes'
  | 'twoFactor.challengeForm'
  | 'twoFactor.challenge'
>;

const twoFactorOf = (ctx: RequestContext) => requireService(ctx.services, 'twoFactor', 'twoFactor()');

export const twoFactorHandlers = {
  'twoFactor.show': async (_input, ctx) => {
    const user = await currentUser(ctx);
    const service = twoFactorOf(ctx);
    const status = await service.status(user);
    if (answersJson(ctx)) return status;
    const qr = status.enabled && !status.confirmed ? await service.qrCode(user) : null;
    const secretKey = qr === null ? null : await service.secretKey(user);
    return page('user/two-factor', {
      title: ctx.t('app.title.two_factor'),
      user,
      status,
      qr,
      secretKey,
      recoveryCodes: service.takeRecoveryCodes(ctx, user),
    });
  },

  'twoFactor.enable': async (input, ctx) => {
    await twoFactorOf(ctx).enable(ctx, await currentUser(ctx), { force: input.force });
    return done(ctx, ctx.t('app.flash.two_factor_set_up'));
  },

  'twoFactor.confirm': async (input, ctx) => {
    await twoFactorOf(ctx).confirm(ctx, await currentUser(ctx), input.code);
    return done(ctx, ctx.t('app.flash.two_factor_on'));
  },

  'twoFactor.disable': async (_input, ctx) => {
    await twoFactorOf(ctx).disable(await currentUser(ctx));
    return done(ctx, ctx.t('app.status.two_factor_off'));
  },

  // Off: Fortify's [] — not the route's shape, so written as text of its own.
  'twoFactor.qrCode': async (_input, ctx) =>
    (await twoFactorOf(ctx).qrCode(await currentUser(ctx))) ?? text('[]', 200, 'application/json; charset=utf-8'),

  'twoFactor.secretKey': async (_input, ctx) => ({ secretKey: await twoFactorOf(ctx).secretKey(await currentUser(ctx)) }),

  'twoFactor.recoveryCodes': async (_input, ctx) => twoFactorOf(ctx).takeRecoveryCodes(ctx, await currentUser(ctx)),

  'twoFactor.regenerateCodes': async (_input, ctx) => {
    await twoFactorOf(ctx).regenerateRecoveryCodes(ctx, await currentUser(ctx));
    return done(ctx, ctx.t('app.status.recovery_codes_made'), { to: '/user/two-factor-authentication' });
  },

  'twoFactor.challengeForm': (_input, ctx) => {
    if (!twoFactorOf(ctx).hasPendingLogin(ctx)) return redirect(accounts(ctx).loginUrl);
    return page('auth/two-factor-challenge', { title: ctx.t('app.title.two_factor') });
  },

  'twoFactor.challenge': async (input, ctx) => {
    await twoFactorOf(ctx).completeLogin(ctx, input);
    if (answersJson(ctx)) return noContent();
    return redirect(accounts(ctx).intendedUrl(ctx));
  },
} satisfies TwoFactorHandlers;

/**
 * Where a login whose password was right goes when the account asks for a
 * code (`ctx.auth` still a guest after `attempt`): JSON clients get
 * Fortify's `{ "two_factor": true }`, pages the challenge form.
 */
export function twoFactorPending(ctx: RequestContext) {
  return answersJson(ctx)
    ? text(JSON.stringify({ two_factor: true }), 200, 'application/json; charset=utf-8')
    : redirectToRoute('twoFactor.challengeForm');
}
