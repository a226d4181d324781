/**
 * Handlers of passkeys (docs/auth.md "Passkeys"; schema/account-security.yaml).
 */
import type { Handlers } from '../../generated/handlers.js';
import 'bindery/auth/passkeys';
import { type RequestContext, requireService } from 'bindery/http';
import { created, noContent, page } from 'bindery/results';
import { accounts, currentUser } from '../auth/users.js';
import { answersJson, back } from './answer.js';

type PasskeysHandlers = Pick<
  Handlers,
  'passkeys.index' | 'passkeys.options' | 'passkeys.store' | 'passkeys.destroy' | 'passkeys.loginOptions' | 'passkeys.login'
>;

const passkeysOf = (ctx: RequestContext) => requireService(ctx.services, 'passkeys', 'passkeys()');

export const passkeysHandlers = {
  'passkeys.index': async (_input, ctx) => {
    const user = await currentUser(ctx);
    const list = await passkeysOf(ctx).list(user);
    if (answersJson(ctx)) return list;
    return page('user/passkeys', { title: ctx.t('app.title.passkeys'), user, passkeys: list });
  },

  'passkeys.options': async (_input, ctx) => passkeysOf(ctx).registrationOptions(ctx, await currentUser(ctx)),

  'passkeys.store': async (input, ctx) => {
    const passkey = await passkeysOf(ctx).register(ctx, await currentUser(ctx), input.credential, input.name);
    ctx.session.flash('status', ctx.t('app.flash.passkey_added', { name: passkey.name }));
    return created(passkey);
  },

  'passkeys.destroy': async (input, ctx) => {
    await passkeysOf(ctx).remove(await currentUser(ctx), input.id);
    if (answersJson(ctx)) return noContent();
    return back(ctx, ctx.t('app.status.passkey_removed'));
  },

  'passkeys.loginOptions': (_input, ctx) => passkeysOf(ctx).authenticationOptions(ctx),

  'passkeys.login': async (input, ctx) => {
    await passkeysOf(ctx).authenticate(ctx, input.credential, { remember: input.remember });
    return { redirect: accounts(ctx).intendedUrl(ctx) };
  },
} satisfies PasskeysHandlers;
