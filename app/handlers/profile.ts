/**
 * Handlers of the account page and credential changes (docs/auth.md
 * "Profile and credentials", "Password confirmation"; schema/account-security.yaml).
 */
import type { Handlers } from '../../generated/handlers.js';
import 'bindery/auth/confirm';
import 'bindery/auth/profile';
import { type RequestContext, requireService } from 'bindery/http';
import { ValidationError } from 'bindery/errors';
import 'bindery/i18n';
import { json, page, redirect, redirectToRoute } from 'bindery/results';
import { accounts, currentUser } from '../auth/users.js';
import { answersJson, done } from './answer.js';

type ProfileHandlers = Pick<
  Handlers,
  'profile.show' | 'profile.update' | 'profile.password' | 'profile.confirmEmail' | 'confirm.form' | 'confirm.store' | 'confirm.status'
>;

const profileOf = (ctx: RequestContext) => requireService(ctx.services, 'profile', 'profile()');
const confirmationOf = (ctx: RequestContext) => requireService(ctx.services, 'passwordConfirmation', 'passwordConfirmation()');

/**
 * Store the user's preferred language (docs/i18n.md "The locale of a request"): one of
 * APP_LOCALES, or none (`''`/null: the browser's). The session keeps it too.
 * @throws {ValidationError} on `locale` for a locale the app does not have.
 */
async function saveLocale(ctx: RequestContext, id: number, locale: string | null): Promise<void> {
  const wanted = locale === null || locale.trim() === '' ? null : locale.trim();
  const i18n = ctx.services.i18n;
  if (wanted !== null && !i18n?.locales.includes(wanted))
    throw new ValidationError({ locale: 'The selected :attribute is invalid.' }, undefined, {
      locale: { key: 'validation.in', values: { attribute: 'locale' }, fields: { attribute: 'locale' } },
    });
  await ctx.services.db.updateTable('users').set({ locale: wanted }).where('id', '=', id).execute();
  if (wanted === null) ctx.session.forget('locale');
  else ctx.session.put('locale', wanted);
}

export const profileHandlers = {
  'profile.show': async (_input, ctx) => {
    const user = await currentUser(ctx);
    return page('user/profile', { title: ctx.t('app.title.profile'), user, locales: ctx.services.i18n?.locales ?? [] });
  },

  'profile.update': async (input, ctx) => {
    const user = await currentUser(ctx);
    const service = profileOf(ctx);
    // A new address needs a fresh password confirmation first (JSON: 423; a form goes to the confirm form and back).
    const confirmFirst = service.confirmationNeeded(ctx, user, input);
    if (confirmFirst !== undefined) return confirmFirst;
    const outcome = await service.update(ctx, user, input);
    if (input.locale !== undefined) await saveLocale(ctx, user.id, input.locale);
    const message =
      outcome.emailPending === null ? ctx.t('app.flash.profile_saved') : ctx.t('app.flash.email_pending', { email: outcome.emailPending });
    return done(ctx, message);
  },

  'profile.password': async (input, ctx) => {
    const user = await currentUser(ctx);
    await profileOf(ctx).updatePassword(ctx, user, input.current_password, input.password);
    return done(ctx, ctx.t('app.flash.password_changed'));
  },

  'profile.confirmEmail': async (input, ctx) => {
    const outcome = await profileOf(ctx).confirmEmailChange(input.token ?? '');
    ctx.session.flash('status', ctx.t(outcome === 'changed' ? 'app.flash.email_changed' : 'app.flash.email_changed_already'));
    return redirectToRoute('accounts.dashboard');
  },

  'confirm.form': (_input, ctx) => page('user/confirm-password', { title: ctx.t('app.title.confirm_password') }),

  'confirm.store': async (input, ctx) => {
    const user = await currentUser(ctx);
    const back = await confirmationOf(ctx).confirm(ctx, user, input.password);
    if (answersJson(ctx)) return json('', 201);
    return redirect(back);
  },

  'confirm.status': (input, ctx) => {
    const status = confirmationOf(ctx).status(ctx, input.seconds);
    return json(
      { confirmed: status.confirmed },
      200,
      status.secondsAgo === null ? undefined : { 'x-retry-after': String(status.secondsAgo) },
    );
  },
} satisfies ProfileHandlers;

/** The intended page after a login (used by the two-factor and passkey sign-ins). */
export const intendedUrl = (ctx: RequestContext): string => accounts(ctx).intendedUrl(ctx);
