/**
 * The settings of external-provider sign-in (docs/oauth.md "Settings"):
 * declared per provider named in `oauth({ providers })`, turned on by
 * `AUTH_PROVIDERS`, each bad one named at boot.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { linkSettings } from '../../../../runtime/auth/links/settings.js';
import { oauthSettings } from '../../../../runtime/auth/oauth/settings.js';
import { combineSettings, coreSettings } from '../../../../runtime/config/index.js';
import { loadSettings } from '../../../../runtime/config/load-settings.js';

const definition = combineSettings(coreSettings, oauthSettings(['example', 'corp']));
const KEY = `base64:${Buffer.alloc(32, 1).toString('base64')}`;
const load = (env: Record<string, string>) => loadSettings(definition, { APP_KEY: KEY, ...env });
const problems = (env: Record<string, string>) => {
  try {
    load(env);
    return [];
  } catch (error) {
    return (error as { problems: { message: string }[] }).problems.map((p) => p.message);
  }
};

describe('oauthSettings | per provider, turned on by AUTH_PROVIDERS', () => {
  it('declares AUTH_<NAME>_ISSUER, _CLIENT_ID, _CLIENT_SECRET (secret) and _SCOPES for each provider; none is on by default', () => {
    const specs = oauthSettings(['example']).specs;
    expect(Object.keys(specs)).toEqual([
      'AUTH_PROVIDERS',
      'AUTH_EXAMPLE_ISSUER',
      'AUTH_EXAMPLE_CLIENT_ID',
      'AUTH_EXAMPLE_CLIENT_SECRET',
      'AUTH_EXAMPLE_SCOPES',
    ]);
    expect(specs.AUTH_EXAMPLE_CLIENT_SECRET!.secret).toBe(true);
    expect(load({})).toMatchObject({ AUTH_PROVIDERS: [], AUTH_EXAMPLE_SCOPES: 'openid email profile' });
  });

  it('a provider turned on needs its issuer and client ID', () => {
    expect(problems({ AUTH_PROVIDERS: 'example, corp', AUTH_CORP_ISSUER: 'https://sso.corp.test', AUTH_CORP_CLIENT_ID: 'app' })).toEqual([
      'AUTH_PROVIDERS="example, corp" with AUTH_EXAMPLE_ISSUER with AUTH_EXAMPLE_CLIENT_ID: AUTH_PROVIDERS turns on "example", which needs AUTH_EXAMPLE_ISSUER and AUTH_EXAMPLE_CLIENT_ID',
    ]);
    expect(load({ AUTH_PROVIDERS: 'corp', AUTH_CORP_ISSUER: 'https://sso.corp.test', AUTH_CORP_CLIENT_ID: 'app' }).AUTH_PROVIDERS).toEqual([
      'corp',
    ]);
  });

  it('an undeclared provider name and a bad issuer are named', () => {
    const p = problems({ AUTH_PROVIDERS: 'github', AUTH_EXAMPLE_ISSUER: 'ftp://x.test' });
    expect(p).toEqual([
      expect.stringMatching(
        /^AUTH_PROVIDERS="github": item 1 is not valid; expected a comma-separated list, each item one of example, corp/,
      ),
      expect.stringMatching(/^AUTH_EXAMPLE_ISSUER="ftp:\/\/x\.test": protocol ftp: is not allowed/),
    ]);
  });

  it('an http issuer is refused in production only', () => {
    const env = { AUTH_PROVIDERS: 'example', AUTH_EXAMPLE_ISSUER: 'http://127.0.0.1:9000', AUTH_EXAMPLE_CLIENT_ID: 'app' };
    expect(problems(env)).toEqual([]);
    expect(problems({ ...env, APP_ENV: 'production', DATABASE_URL: 'postgres://db/app' })).toEqual([
      expect.stringMatching(/the issuer of "example" must be https in production/),
    ]);
  });

  it('refuses a provider name that cannot be part of a setting name', () => {
    expect(() => oauthSettings(['Git-Hub'])).toThrow(/lower-case letters and digits/);
  });
});

describe('.env.example', () => {
  it('names each setting of the links and of the reference app\'s provider "example"', async () => {
    const example = await readFile(new URL('../../../../.env.example', import.meta.url), 'utf8');
    for (const name of [...Object.keys(linkSettings.specs), ...Object.keys(oauthSettings(['example']).specs)])
      expect(example).toMatch(new RegExp(`^(# )?${name}=`, 'm'));
  });
});
