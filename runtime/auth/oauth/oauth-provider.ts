/**
 * One external sign-in provider: its settings and its OpenID Connect
 * configuration, discovered on first use (docs/oauth.md "Providers").
 */
import * as client from 'openid-client';
import { HttpError } from '../../errors/http-error.js';
import { DEFAULT_SCOPES } from './settings.js';

/** A provider as configured by its settings. */
export interface OAuthProviderOptions {
  /** `example` in `/auth/example/redirect` and `AUTH_EXAMPLE_*`. */
  readonly name: string;
  readonly issuer: URL;
  readonly clientId: string;
  readonly clientSecret?: string;
  /** Space-separated (default `openid email profile`). */
  readonly scopes?: string;
  /** The absolute callback URL registered at the provider (`APP_URL` + `/auth/<name>/callback`). */
  readonly redirectUri: string;
  /** Plain-http issuers are allowed (outside production only; a local test issuer). */
  readonly allowHttp: boolean;
}

/** Seconds the provider has to answer a discovery or token request. */
const PROVIDER_TIMEOUT_S = 10;

export class OAuthProvider {
  readonly name: string;
  readonly redirectUri: string;
  readonly scopes: string;
  readonly #o: OAuthProviderOptions;
  #configuration: Promise<client.Configuration> | undefined;

  constructor(options: OAuthProviderOptions) {
    this.#o = options;
    this.name = options.name;
    this.redirectUri = options.redirectUri;
    this.scopes = options.scopes ?? DEFAULT_SCOPES;
  }

  /** The provider's name for people: `Example` for `example`. */
  get label(): string {
    return this.name.charAt(0).toUpperCase() + this.name.slice(1);
  }

  /**
   * The provider's configuration, discovered once (a failed discovery is tried again on the next sign-in).
   * @throws {HttpError} 502 `BINDERY_OAUTH_PROVIDER_FAILED` when the discovery document cannot be fetched or is unusable.
   */
  configuration(): Promise<client.Configuration> {
    this.#configuration ??= client
      .discovery(this.#o.issuer, this.#o.clientId, this.#o.clientSecret, undefined, {
        execute: this.#o.allowHttp && this.#o.issuer.protocol === 'http:' ? [client.allowInsecureRequests] : [],
        timeout: PROVIDER_TIMEOUT_S,
      })
      .catch((error: unknown) => {
        this.#configuration = undefined;
        throw new HttpError(
          'BINDERY_OAUTH_PROVIDER_FAILED',
          `Signing in with ${this.label} is not possible right now: its configuration could not be read.`,
          {
            cause: error,
          },
        );
      });
    return this.#configuration;
  }
}
