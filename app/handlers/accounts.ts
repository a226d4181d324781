/**
 * Handlers of the account pages of the auth core (docs/spec.md 4.1; docs/auth.md
 * "Pages"): home, register, login, logout, dashboard and a user's page.
 * Email verification, password reset and tokens have their own handlers;
 * the admin pages are the back office (app/back-office.ts). Who may see a
 * user's page is the policy
 * `users` (schema/accounts.yaml, app/policies/users.ts), checked by the
 * runtime before these handlers run.
 */
import type { Handlers } from '../../generated/handlers.js';
import type { User } from '../../generated/types.js';
import { normalizeLogin } from 'bindery/auth';
import { insertReturning, isUniqueViolation } from 'bindery/db';
import { sendVerificationLink } from 'bindery/auth/links';
import { ValidationError } from 'bindery/errors';
import { page, redirect, redirectToRoute } from 'bindery/results';
import { storageOf } from 'bindery/storage';
import { accounts, currentUser } from '../auth/users.js';
import { tokensPageData } from './tokens.js';
import { twoFactorPending } from './two-factor.js';

type AccountsHandlers = Pick<
  Handlers,
  | 'accounts.home'
  | 'accounts.registerForm'
  | 'accounts.register'
  | 'accounts.loginForm'
  | 'accounts.login'
  | 'accounts.logout'
  | 'accounts.dashboard'
  | 'users.show'
>;

/** The field error of a taken email (docs/spec.md 7 rule 7). */
export const EMAIL_TAKEN = 'The email has already been taken.';

/** The 422 of a taken address: {@link EMAIL_TAKEN}, worded in the request's locale (`app.errors.email_taken`). */
function emailTaken(): ValidationError {
  return new ValidationError({ email: EMAIL_TAKEN }, undefined, { email: { key: 'app.errors.email_taken', values: {} } });
}

export const accountsHandlers = {
  'accounts.home': () => redirectToRoute('accounts.dashboard'),

  'accounts.registerForm': (_input, ctx) => page('auth/register', { title: ctx.t('app.register.heading') }),

  'accounts.register': async (input, ctx) => {
    const db = ctx.services.db;
    const email = normalizeLogin(input.email);
    const taken = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
    if (taken !== undefined) throw emailTaken();
    const password = await accounts(ctx).hashPassword(input.password);
    let user: User;
    try {
      user = await insertReturning(db, 'users', { name: input.name.trim(), email, password });
    } catch (error) {
      // Two registrations of one address at the same moment: the unique index answers the second.
      if (isUniqueViolation(error)) throw emailTaken();
      throw error;
    }
    await sendVerificationLink(ctx, user);
    await accounts(ctx).login(ctx, user);
    ctx.session.flash('status', ctx.t('app.flash.welcome'));
    return redirect(accounts(ctx).homeUrl);
  },

  'accounts.loginForm': (_input, ctx) => page('auth/login', { title: ctx.t('app.login.heading') }),

  'accounts.login': async (input, ctx) => {
    const service = accounts(ctx);
    await service.attempt(ctx, input.email, input.password, { remember: input.remember });
    // An account with two-factor authentication is not signed in yet: the code comes next.
    if (!ctx.auth.signedIn) return twoFactorPending(ctx);
    return redirect(service.intendedUrl(ctx));
  },

  'accounts.logout': async (_input, ctx) => {
    const service = accounts(ctx);
    await service.logout(ctx);
    ctx.session.flash('status', ctx.t('app.flash.logged_out'));
    return redirect(service.loginUrl);
  },

  'accounts.dashboard': async (_input, ctx) => {
    const user = await currentUser(ctx);
    const avatarUrl = await storageOf(ctx.services).url(user.avatar);
    return page('dashboard', { title: ctx.t('app.title.dashboard'), user, avatarUrl, ...(await tokensPageData(ctx)) });
  },

  // The policy users.view found the user and allowed the caller (their own page, or an admin).
  'users.show': async (_input, ctx, user) => {
    if (ctx.client.isBrowser && !ctx.client.wantsJson) return page('users/show', { title: user.name, user, me: await currentUser(ctx) });
    return user;
  },
} satisfies AccountsHandlers;
