/**
 * API tokens (docs/spec.md 2.2, 5.5; docs/tokens.md): the `tokens()` setup
 * step, `ctx.services.apiTokens` and the `token` middleware.
 */
export { tokens, AUTH_MIGRATIONS_DIR, type TokensStepOptions } from './tokens-step.js';
export {
  ApiTokens,
  LAST_USED_INTERVAL_MS,
  TOKEN_NAME_MAX,
  type ApiToken,
  type ApiTokenRow,
  type ApiTokensDatabase,
  type ApiTokensTable,
  type CreateTokenOptions,
  type NewApiToken,
} from './api-tokens.js';
export { bearerToken, createTokenMiddleware } from './token-middleware.js';
export { DEFAULT_TOKEN_SCHEME, presentedToken, tokenSchemeOf } from './token-scheme.js';
export { formatToken, hashSecret, newSecret, parseToken, secretMatches, SECRET_BYTES, SECRET_CHARS } from './token-format.js';
