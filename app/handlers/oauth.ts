/**
 * Handlers of external-provider sign-in (docs/spec.md 4.1 "/auth/{provider}/
 * redirect" and "/callback"; docs/oauth.md): the provider is configured by
 * settings (`AUTH_PROVIDERS`, `AUTH_<NAME>_*`), the flow by
 * `runtime/auth/oauth`.
 */
import type { Handlers } from '../../generated/handlers.js';
import type { ExternalSignIn } from 'bindery/auth/oauth';
import { requireService, type RequestContext } from 'bindery/http';
import { redirect, redirectExternal } from 'bindery/results';
import { accounts } from '../auth/users.js';
import { twoFactorPending } from './two-factor.js';

type OauthHandlers = Pick<Handlers, 'oauth.redirect' | 'oauth.callback'>;

function externalSignIn(ctx: Pick<RequestContext, 'services'>): ExternalSignIn {
  return requireService(ctx.services, 'externalSignIn', 'auth() and oauth({ providers })');
}

export const oauthHandlers = {
  'oauth.redirect': async (input, ctx) => redirectExternal(await externalSignIn(ctx).begin(ctx, input.provider)),

  'oauth.callback': async (input, ctx) => {
    const { created, provider } = await externalSignIn(ctx).complete(ctx, input.provider);
    // An account with two-factor authentication is not signed in yet: its code comes next.
    if (!ctx.auth.signedIn) return twoFactorPending(ctx);
    ctx.session.flash('status', ctx.t(created ? 'app.flash.oauth_created' : 'app.flash.oauth_signed_in', { provider: provider.label }));
    return redirect(accounts(ctx).intendedUrl(ctx));
  },
} satisfies OauthHandlers;
