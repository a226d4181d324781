/**
 * The `oauth()` setup step (docs/boot.md "Setup steps"; docs/oauth.md):
 * sign-in with external OpenID Connect providers for an app with `auth()`.
 */
import type { SetupStep } from '../../app/setup-step.js';
import type { AuthService } from '../auth-service.js';
import { resolveUsersTable, type LinkUsersTable } from '../links/users-table.js';
import { ExternalSignIn } from './external-sign-in.js';
import { OAuthProvider } from './oauth-provider.js';
import { oauthSettings, providerSettingNames } from './settings.js';

declare module '../../http/context.js' {
  interface Services {
    /** External-provider sign-in; present once `oauth()` is set up. */
    readonly externalSignIn?: ExternalSignIn;
  }
}

/** Options of {@link oauth}. */
export interface OAuthStepOptions {
  /** The providers the app can use (lower-case letters and digits); each gets settings `AUTH_<NAME>_ISSUER`, `_CLIENT_ID`, `_CLIENT_SECRET`, `_SCOPES`, and is turned on by `AUTH_PROVIDERS`. */
  readonly providers: readonly string[];
  /** Table and column names of the users (defaults: docs/spec.md 2.1), for creating the account of a first sign-in. */
  readonly users?: LinkUsersTable;
  /** The callback path, `{provider}` replaced (default `/auth/{provider}/callback`, docs/spec.md 4.1). */
  readonly callbackPath?: string;
  /** Clock in ms since the epoch (default the app's, `ctx.now`). */
  readonly now?: () => number;
}

/**
 * External-provider sign-in (docs/spec.md 4.1 `/auth/{provider}/redirect` and
 * `/callback`): OpenID Connect authorization code flow with PKCE, state and
 * nonce (openid-client); the account is found — or created — by the
 * provider's verified email. Adds `ctx.services.externalSignIn`. Needs
 * `auth()` (and so `session()`) before it.
 *
 * @throws {SettingsError} at boot for a turned-on provider without issuer or client ID, or an http issuer in production.
 * @example setup: [cache(), session(), auth({ users }), oauth({ providers: ['example'] })]
 */
export function oauth(options: OAuthStepOptions): SetupStep {
  const settings = oauthSettings(options.providers);
  const users = resolveUsersTable(options.users);
  const callbackPath = options.callbackPath ?? '/auth/{provider}/callback';
  return {
    name: 'oauth',
    requires: [{ name: 'auth', call: 'auth()' }],
    settings,
    setup(ctx) {
      const s = ctx.settings;
      const appUrl = s.APP_URL as URL;
      const prefix = appUrl.pathname.replace(/\/+$/, '');
      const providers = new Map<string, OAuthProvider>();
      for (const name of (s.AUTH_PROVIDERS as string[] | undefined) ?? []) {
        const n = providerSettingNames(name);
        const secret = s[n.clientSecret] as string | undefined;
        providers.set(
          name,
          new OAuthProvider({
            name,
            issuer: s[n.issuer] as URL,
            clientId: s[n.clientId] as string,
            ...(secret === undefined ? {} : { clientSecret: secret }),
            scopes: s[n.scopes] as string,
            redirectUri: new URL(`${prefix}${callbackPath.replace('{provider}', name)}`, appUrl.origin).href,
            allowHttp: s.APP_ENV !== 'production',
          }),
        );
      }
      ctx.services.externalSignIn = new ExternalSignIn({
        providers,
        auth: (ctx.services as { auth?: AuthService }).auth!,
        db: ctx.database.db,
        users,
        now: options.now ?? ctx.now,
      });
    },
  };
}
