/**
 * Signing in with an external provider (docs/spec.md 4.1 "/auth/{provider}/
 * redirect" and "/callback"; docs/oauth.md): OpenID Connect authorization
 * code flow through openid-client, with PKCE (S256), state and nonce kept
 * in the session between the two requests, and the account found — or
 * created — by the provider's verified email address.
 *
 * `ctx.services.externalSignIn`, set up by the `oauth()` step.
 */
import { randomBytes } from 'node:crypto';
import * as client from 'openid-client';
import { HttpError } from '../../errors/http-error.js';
import type { RequestContext } from '../../http/context.js';
import type { AuthService } from '../auth-service.js';
import { normalizeLogin } from '../user-provider.js';
import type { ResolvedUsersTable } from '../links/users-table.js';
import type { OAuthProvider } from './oauth-provider.js';
import type { AnyKysely } from '../../db/any-kysely.js';
import { insertIfAbsent } from '../../db/portable-writes.js';
import { BinderyError } from '../../errors/bindery-error.js';

/** The session key of a sign-in under way. */
export const PENDING_KEY = '_oauth';
/** How long a started sign-in may take before its callback, ms. */
export const PENDING_TTL_MS = 10 * 60_000;

/** What the session keeps between the redirect and the callback (never sent to the browser in clear: the session cookie is encrypted). */
interface PendingSignIn {
  readonly provider: string;
  readonly state: string;
  readonly verifier: string;
  readonly nonce: string;
  readonly at: number;
}

/** The outcome of {@link ExternalSignIn.complete}. */
export interface CompletedSignIn<U = unknown> {
  readonly user: U;
  /** The account was created by this sign-in. */
  readonly created: boolean;
  readonly provider: OAuthProvider;
}

/** What an {@link ExternalSignIn} is built from (the `oauth()` step fills it). */
export interface ExternalSignInOptions {
  readonly providers: ReadonlyMap<string, OAuthProvider>;
  readonly auth: AuthService;
  readonly db: AnyKysely;
  readonly users: ResolvedUsersTable;
  readonly now?: () => number;
}

function callbackInvalid(message: string, cause?: unknown): HttpError {
  return new HttpError('BINDERY_OAUTH_CALLBACK_INVALID', message, cause === undefined ? {} : { cause });
}

/** A failure of the token exchange: the provider refused (400), or could not be reached or answered nonsense (502). */
function exchangeFailed(provider: OAuthProvider, error: unknown): HttpError {
  const code = (error as { code?: unknown })?.code;
  if (error instanceof TypeError || code === 'OAUTH_RESPONSE_IS_NOT_CONFORM' || code === 'OAUTH_RESPONSE_IS_NOT_JSON') {
    return new HttpError('BINDERY_OAUTH_PROVIDER_FAILED', `${provider.label} did not answer the sign-in as expected; try again later.`, {
      cause: error,
    });
  }
  // An OAuth error answer (RFC 6749 5.2) says what was refused: `invalid_grant: …`.
  const { error: oauthError, error_description: description } = error as { error?: unknown; error_description?: unknown };
  const why =
    typeof oauthError === 'string' ? `${oauthError}${typeof description === 'string' ? `: ${description}` : ''}` : (error as Error).message;
  return callbackInvalid(`${provider.label} refused to complete the sign-in (${why}). Start again from the login page.`, error);
}

/**
 * External sign-in: the redirect to the provider and the callback.
 * @example
 *   return redirectExternal(await ctx.services.externalSignIn.begin(ctx, input.provider));
 */
export class ExternalSignIn {
  readonly #o: ExternalSignInOptions;
  readonly #now: () => number;

  constructor(options: ExternalSignInOptions) {
    this.#o = options;
    this.#now = options.now ?? Date.now;
  }

  /** The providers turned on (`AUTH_PROVIDERS`), by name. */
  get providers(): ReadonlyMap<string, OAuthProvider> {
    return this.#o.providers;
  }

  /**
   * The turned-on provider `name`.
   * @throws {HttpError} 404 `BINDERY_OAUTH_PROVIDER_UNKNOWN` for any other name.
   */
  provider(name: string): OAuthProvider {
    const provider = this.#o.providers.get(name);
    if (provider === undefined) throw new HttpError('BINDERY_OAUTH_PROVIDER_UNKNOWN', `There is no sign-in provider named "${name}".`);
    return provider;
  }

  /**
   * Begin a sign-in: keep a fresh PKCE verifier, state and nonce in the
   * session and answer the provider's authorization URL to redirect to.
   * @throws {HttpError} 404 for an unknown provider; 502 when its configuration cannot be read.
   */
  async begin(ctx: RequestContext, name: string): Promise<string> {
    const provider = this.provider(name);
    const config = await provider.configuration();
    const verifier = client.randomPKCECodeVerifier();
    const pending: PendingSignIn = { provider: name, state: client.randomState(), verifier, nonce: client.randomNonce(), at: this.#now() };
    ctx.session.put(PENDING_KEY, pending);
    return client.buildAuthorizationUrl(config, {
      redirect_uri: provider.redirectUri,
      scope: provider.scopes,
      response_type: 'code',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state: pending.state,
      nonce: pending.nonce,
    }).href;
  }

  /**
   * Complete a sign-in from the provider's callback: check the state, trade
   * the code (with the PKCE verifier) for tokens, check the ID token (issuer,
   * audience, nonce), read the verified email, find or create the account and
   * sign it in (`AuthService.loginWithSecondFactor`: a new session ID; an
   * account with two-factor authentication is left with a pending login
   * instead, `ctx.auth` a guest, until its code is given). The
   * pending sign-in is used once, whatever the outcome.
   * @throws {HttpError} 400 `BINDERY_OAUTH_CALLBACK_INVALID` (no sign-in started here, state mismatch, provider error, code or verifier refused, ID token invalid);
   *   403 `BINDERY_OAUTH_EMAIL_UNVERIFIED` (no verified email); 422 `BINDERY_OAUTH_PROFILE_INVALID` (an address over 254 characters,
   *   with control characters or without the shape `local@domain`: the provider's profile is input like any other); 409 `BINDERY_OAUTH_ACCOUNT_UNVERIFIED` (the address belongs to an account whose address is not verified);
   *   404 unknown provider; 502 provider unreachable.
   */
  async complete(ctx: RequestContext, name: string): Promise<CompletedSignIn> {
    const provider = this.provider(name);
    const pending = ctx.session.get<PendingSignIn>(PENDING_KEY);
    ctx.session.forget(PENDING_KEY);
    if (pending === undefined || pending.provider !== name || this.#now() - pending.at > PENDING_TTL_MS) {
      throw callbackInvalid(
        `No sign-in with ${provider.label} was started in this browser, or it took longer than ten minutes. Start again from the login page.`,
      );
    }
    const params = new URL(ctx.request.url, 'http://callback.invalid').searchParams;
    const error = params.get('error');
    if (error !== null) {
      const description = params.get('error_description');
      throw callbackInvalid(`${provider.label} did not sign you in: ${error}${description ? ` (${description})` : ''}.`);
    }
    if (params.get('state') !== pending.state) {
      throw callbackInvalid(
        `The answer from ${provider.label} does not belong to the sign-in started in this browser (state mismatch). Start again from the login page.`,
      );
    }
    const config = await provider.configuration();
    const current = new URL(provider.redirectUri);
    current.search = params.toString();
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
    try {
      tokens = await client.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: pending.verifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
    } catch (e) {
      throw exchangeFailed(provider, e);
    }
    const claims = tokens.claims()!;
    let email: unknown = claims.email;
    let verified: unknown = claims.email_verified;
    let displayName: unknown = claims.name;
    if (typeof email !== 'string' || verified !== true) {
      try {
        const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
        email = info.email ?? email;
        verified = info.email_verified ?? verified;
        displayName ??= info.name;
      } catch (e) {
        throw exchangeFailed(provider, e);
      }
    }
    if (typeof email !== 'string' || email.trim() === '' || verified !== true) {
      throw new HttpError(
        'BINDERY_OAUTH_EMAIL_UNVERIFIED',
        `${provider.label} did not give a verified email address, so the sign-in cannot be matched to an account. Verify your address with ${provider.label}, or register with email and password.`,
        {},
      );
    }
    const address = normalizeLogin(email);
    const problem = emailProblem(address);
    if (problem !== undefined) {
      throw new HttpError(
        'BINDERY_OAUTH_PROFILE_INVALID',
        `${provider.label} gave an email address that cannot be used for an account (${problem}). Register with email and password instead.`,
        {},
      );
    }
    const { user, created } = await this.#findOrCreate(
      address,
      typeof displayName === 'string' ? cleanName(displayName) : undefined,
      provider,
    );
    // An account with a second factor asks for its code here too: the provider vouches for the address, not for this account's second step.
    await this.#o.auth.loginWithSecondFactor(ctx, user, { method: 'oauth' });
    return { user, created, provider };
  }

  /**
   * The account of a verified email: an existing one only when its own
   * address is verified (else anyone could have registered the address
   * first, set the password, and be let in later); a new one — verified,
   * with an unusable random password — when nobody has the address.
   */
  async #findOrCreate(
    email: string,
    displayName: string | undefined,
    provider: OAuthProvider,
  ): Promise<{ user: unknown; created: boolean }> {
    const { auth, users: u } = this.#o;
    const existing = await auth.users.findByLogin(email);
    if (existing !== null) return { user: this.#linkable(existing, email, provider), created: false };
    const name = displayName ?? Array.from(email.split('@')[0]!).slice(0, 255).join('');
    // Nobody knows this password: the account signs in through the provider, or after a password reset.
    const password = await auth.hashPassword(randomBytes(32).toString('base64url'));
    const values = { [u.name]: name, [u.email]: email, [u.password]: password, [u.emailVerifiedAt]: new Date(this.#now()) };
    const inserted = (await insertIfAbsent(this.#o.db, u.table, values, { conflict: [u.email] })) > 0;
    const user = await auth.users.findByLogin(email);
    if (user === null)
      throw new BinderyError(
        'BINDERY_SETUP_INVALID',
        `The account of ${email} was created but cannot be found by its login (check the users table options of oauth()).`,
      );
    // Someone registered the address at the same moment: the same rule as for an existing account.
    if (!inserted) return { user: this.#linkable(user, email, provider), created: false };
    return { user, created: true };
  }

  /**
   * @throws {HttpError} 409 `BINDERY_OAUTH_ACCOUNT_UNVERIFIED` when the account's own address is not verified.
   */
  #linkable(user: unknown, email: string, provider: OAuthProvider): unknown {
    if ((user as Record<string, unknown>)[this.#o.users.emailVerifiedAt] == null) {
      throw new HttpError(
        'BINDERY_OAUTH_ACCOUNT_UNVERIFIED',
        `An account with the address ${email} exists, but its address is not verified: log in with its password and follow the verification link first; then ${provider.label} can sign you in.`,
        {},
      );
    }
    return user;
  }
}

/** The longest email address (RFC 5321: a forward path of 256 octets, less the angle brackets). */
export const MAX_EMAIL_LENGTH = 254;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATE_G = new RegExp(LONE_SURROGATE.source, 'g');

/** Why `email` cannot be an account's address, or `undefined` when it can. */
function emailProblem(email: string): string | undefined {
  if (email.length > MAX_EMAIL_LENGTH) return `longer than ${MAX_EMAIL_LENGTH} characters`;
  // Control characters (NUL included, which PostgreSQL refuses in text) and lone surrogates.
  if (/[\u0000-\u001f\u007f]/.test(email) || LONE_SURROGATE.test(email)) return 'it holds control characters';
  const at = email.lastIndexOf('@');
  if (at < 1 || at === email.length - 1 || /\s/.test(email)) return 'it is not of the form name@domain';
  return undefined;
}

/** A display name fit for the users table: control characters dropped, at most 255 characters (whole code points). */
function cleanName(name: string): string | undefined {
  const cleaned = name
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .replace(LONE_SURROGATE_G, '\uFFFD')
    .trim();
  return cleaned === '' ? undefined : Array.from(cleaned).slice(0, 255).join('');
}
