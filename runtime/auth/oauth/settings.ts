/**
 * Settings of external-provider sign-in (docs/spec.md 4.1 "/auth/{provider}/…";
 * docs/oauth.md "Settings"). The providers an app can use are named in its
 * setup list (`oauth({ providers: ['example'] })`), so each has declared,
 * documented settings; `AUTH_PROVIDERS` turns them on.
 */
import { defineSettings, type SettingsDefinition } from '../../config/define-settings.js';
import { listSetting, enumSetting, stringSetting, urlSetting } from '../../config/parsers.js';
import type { CrossSettingProblem, SettingSpec } from '../../config/setting.js';
import { BinderyError } from '../../errors/bindery-error.js';

/** A provider name: lower-case letters and digits, starting with a letter (it is part of setting names and URLs). */
export const PROVIDER_NAME = /^[a-z][a-z0-9]{0,30}$/;

/** The scopes asked for when `AUTH_<NAME>_SCOPES` is unset. */
export const DEFAULT_SCOPES = 'openid email profile';

/** The setting names of one provider. */
export function providerSettingNames(name: string) {
  const p = `AUTH_${name.toUpperCase()}`;
  return { issuer: `${p}_ISSUER`, clientId: `${p}_CLIENT_ID`, clientSecret: `${p}_CLIENT_SECRET`, scopes: `${p}_SCOPES` } as const;
}

/**
 * The settings of the `oauth()` step for the given provider names:
 * `AUTH_PROVIDERS`, and per provider `AUTH_<NAME>_ISSUER`, `_CLIENT_ID`,
 * `_CLIENT_SECRET`, `_SCOPES`.
 * @throws {Error} for a provider name that is not lower-case letters and digits (a programming error).
 */
export function oauthSettings(providers: readonly string[]): SettingsDefinition<Record<string, SettingSpec<unknown>>> {
  const specs: Record<string, SettingSpec<unknown>> = {
    AUTH_PROVIDERS: {
      description: `External sign-in providers turned on, comma-separated (of ${providers.length === 0 ? 'none declared' : providers.join(', ')}); each needs its AUTH_<NAME>_ISSUER and AUTH_<NAME>_CLIENT_ID.`,
      parser: listSetting(
        providers.length > 0
          ? enumSetting(providers)
          : { allowed: 'a provider declared in oauth({ providers }) (none is)', parse: () => ({ ok: false }) },
      ),
      default: '',
      example: providers[0] ?? '',
    },
  };
  for (const name of providers) {
    if (!PROVIDER_NAME.test(name))
      throw new BinderyError(
        'BINDERY_SETUP_INVALID',
        `oauth(): provider name ${JSON.stringify(name)} must be lower-case letters and digits, starting with a letter.`,
      );
    const n = providerSettingNames(name);
    specs[n.issuer] = {
      description: `The OpenID Connect issuer of "${name}" (its discovery document is <issuer>/.well-known/openid-configuration). http is allowed outside production only.`,
      parser: urlSetting({ protocols: ['http', 'https'] }),
      example: 'https://accounts.example.com',
    };
    specs[n.clientId] = { description: `The client ID the app has at "${name}".`, parser: stringSetting(), example: 'bindery-app' };
    specs[n.clientSecret] = {
      description: `The client secret the app has at "${name}" (unset for a public client).`,
      parser: stringSetting(),
      secret: true,
    };
    specs[n.scopes] = {
      description: `The scopes asked of "${name}", space-separated; openid and email are needed to match accounts by email.`,
      parser: stringSetting(),
      default: DEFAULT_SCOPES,
    };
  }
  return defineSettings(specs, {
    check(values) {
      const problems: CrossSettingProblem[] = [];
      for (const name of (values.AUTH_PROVIDERS as string[] | undefined) ?? []) {
        const n = providerSettingNames(name);
        const missing = [n.issuer, n.clientId].filter((s) => values[s] === undefined);
        if (missing.length > 0)
          problems.push({
            names: ['AUTH_PROVIDERS', ...missing],
            message: `AUTH_PROVIDERS turns on "${name}", which needs ${missing.join(' and ')}`,
          });
        const issuer = values[n.issuer] as URL | undefined;
        if (issuer?.protocol === 'http:' && values.APP_ENV === 'production') {
          problems.push({
            names: [n.issuer, 'APP_ENV'],
            message: `the issuer of "${name}" must be https in production (tokens and user data would travel in clear text)`,
          });
        }
      }
      return problems;
    },
  });
}
