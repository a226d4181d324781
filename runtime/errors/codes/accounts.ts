/**
 * Registered error codes: Accounts: auth, policies, tokens, mail and links, external sign-in (merged into `ERROR_CODES` by
 * runtime/errors/codes.ts; causes and fixes in docs/errors.md). Keep each
 * section sorted.
 */
import type { ErrorCodeSpec } from './spec.js';

/** Accounts: auth, policies, tokens, mail and links, external sign-in. */
export const ACCOUNT_CODES = {
  // ── auth (runtime/auth) ──
  BINDERY_AUTH_USER_GONE: {
    status: 500,
    summary: 'A signed-in user cannot be loaded, so a change cannot be attributed; the write is refused.',
  },
  BINDERY_AUTH_USER_LOADING: {
    status: 500,
    summary: 'The current user was asked for while it is being loaded (a lookup calling ctx.auth.user()).',
  },

  // ── auth core: session guard, guards, login, remember-me, cache (runtime/auth, runtime/cache) ──
  BINDERY_AUTH_FAILED: { status: 422, summary: 'The login and password do not match an account (a field error on email).' },
  BINDERY_AUTH_MIDDLEWARE_MISSING: {
    summary: 'A route guarded by require or guest has no auth (or token) middleware before the guard; the boot stops.',
  },
  BINDERY_AUTH_REMEMBER_UNSUPPORTED: {
    status: 500,
    summary: 'Remember-me was asked for, but the user provider lacks readRememberToken or writeRememberToken.',
  },
  BINDERY_AUTH_SECOND_FACTOR_REQUIRED: {
    status: 403,
    summary: 'verifyCredentials was asked about an account with a second factor: a password alone does not sign it in.',
  },
  BINDERY_AUTH_THROTTLED: {
    status: 422,
    summary: 'Too many login attempts for this login from this address, or too many failures from it; the password was not checked.',
  },
  BINDERY_AUTH_UNAUTHENTICATED: {
    status: 401,
    summary: 'A guest asked a guarded route for something other than a page (JSON, htmx, no session).',
  },
  BINDERY_CACHE_UNAVAILABLE: { summary: 'The cache driver cannot use its table bindery_cache (migrations not applied?); the boot stops.' },

  // ── authorization: policies (runtime/authorization) ──
  BINDERY_POLICY_DENIED: {
    status: 403,
    summary: "The route's policy (or ctx.authorize) does not allow the signed-in user this action on this row.",
  },
  BINDERY_POLICY_FAILED: {
    status: 500,
    summary: 'A policy written in TypeScript threw, or its scope could not be built; the request is refused, never allowed.',
  },
  BINDERY_POLICY_INVALID: {
    summary:
      'The policies and the app disagree: an unknown policy or action, a code action without its definePolicy function or scope; the boot stops.',
  },
  BINDERY_POLICY_UNSCOPED: {
    status: 500,
    summary: 'A list, an included relation, a bulk write or ctx.scope needs the scope of a policy action that has none.',
  },

  // ── tokens: API tokens and the token middleware (runtime/auth/tokens) ──
  BINDERY_TOKEN_ABILITY_MISSING: { status: 403, summary: 'The bearer token lacks an ability the route needs.' },
  BINDERY_TOKEN_INVALID: {
    status: 401,
    summary: 'The bearer token is malformed, unknown, wrong, expired or revoked, or its owner is gone.',
  },
  BINDERY_TOKEN_MISSING: { status: 401, summary: 'The route needs a bearer token and the request sent none.' },

  // ── mail, account links and rate limits (runtime/mail, runtime/auth/links, runtime/rate-limit) ──
  BINDERY_MAIL_FAILED: { status: 500, summary: 'The mail transport could not send a message (SMTP refused it or could not be reached).' },
  BINDERY_RATE_LIMITED: {
    status: 429,
    summary: 'Too many requests of one kind in the window (e.g. 5 password reset mails a minute per address).',
  },
  BINDERY_PASSWORD_CONFIRMATION_REQUIRED: {
    status: 423,
    summary:
      'A route declared with confirmPassword was asked for by a JSON client whose last password confirmation is older than the window.',
  },
  BINDERY_PASSWORD_INCORRECT: {
    status: 422,
    summary: "The password given to confirm an action is not the signed-in user's (a field error).",
  },
  BINDERY_EMAIL_CHANGE_LINK_INVALID: {
    status: 400,
    summary: 'The email change link is invalid, has expired, or the account changed its address since the link was made.',
  },
  BINDERY_TWO_FACTOR_CODE_INVALID: {
    status: 422,
    summary: 'A two-factor code or recovery code is wrong, used already, or there is no pending two-factor login (a field error).',
  },
  BINDERY_TWO_FACTOR_THROTTLED: {
    status: 422,
    summary:
      'Too many two-factor codes tried in a minute: recovery codes by one pending login, or codes confirming two-factor for one account (a field error).',
  },
  BINDERY_TWO_FACTOR_LOCKED: {
    status: 429,
    summary: 'Too many wrong two-factor codes in a row for the account: sign-in codes are refused until the lockout ends (Retry-After).',
  },
  BINDERY_TWO_FACTOR_NOT_ENABLED: {
    status: 404,
    summary: 'The account has no two-factor secret (enable two-factor authentication first).',
  },
  BINDERY_PASSKEY_REFUSED: {
    status: 422,
    summary:
      'A passkey registration or assertion did not verify (challenge, origin, RP ID, signature, counter); nothing was signed in or stored.',
  },
  BINDERY_VERIFY_LINK_INVALID: {
    status: 400,
    summary: 'The email verification link is invalid, has expired, or was made for another address.',
  },

  // ── external-provider sign-in (runtime/auth/oauth) ──
  BINDERY_OAUTH_ACCOUNT_UNVERIFIED: {
    status: 409,
    summary: "The provider's verified address belongs to an account whose own address is not verified; it is not signed in.",
  },
  BINDERY_OAUTH_CALLBACK_INVALID: {
    status: 400,
    summary: 'The provider callback failed its checks (state, PKCE, code, ID token) or the provider reported an error.',
  },
  BINDERY_OAUTH_EMAIL_UNVERIFIED: {
    status: 403,
    summary: 'The provider gave no verified email address, so the sign-in cannot be matched to an account.',
  },
  BINDERY_OAUTH_PROFILE_INVALID: {
    status: 422,
    summary: "The provider's verified email address cannot be an account's (over 254 characters, control characters, not name@domain).",
  },
  BINDERY_OAUTH_PROVIDER_FAILED: {
    status: 502,
    summary: 'The external provider could not be reached or answered something unusable (discovery, token endpoint).',
  },
  BINDERY_OAUTH_PROVIDER_UNKNOWN: { status: 404, summary: 'No external sign-in provider of that name is configured (AUTH_PROVIDERS).' },
} as const satisfies Record<string, ErrorCodeSpec>;
