/**
 * API tokens (docs/spec.md 2.2, 5.5; docs/tokens.md): the `tokens()` setup
 * step, `ctx.services.apiTokens` and the `token` middleware.
 */
export { tokens, type TokensStepOptions } from './tokens-step.js';
export {
  ApiTokens,
  type ApiToken,
  type ApiTokenRow,
  type ApiTokensDatabase,
  type ApiTokensTable,
  type CreateTokenOptions,
  type NewApiToken,
} from './api-tokens.js';
export { bearerToken, MCP_ONLY_ABILITY } from './token-middleware.js';
export { presentedToken } from './token-scheme.js';
