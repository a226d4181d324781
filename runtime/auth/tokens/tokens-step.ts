/**
 * The `tokens()` setup step (docs/boot.md "Setup steps"; docs/tokens.md):
 * API tokens for an app with `auth()`.
 */
import { fileURLToPath } from 'node:url';
import type { SetupStep } from '../../app/setup-step.js';
import type { AuthService } from '../auth-service.js';
import { ApiTokens } from './api-tokens.js';
import { createTokenMiddleware } from './token-middleware.js';

declare module '../../http/context.js' {
  interface Services {
    /** The users' API tokens; present once `tokens()` is set up. */
    readonly apiTokens?: ApiTokens;
  }
}

/** The folder of the `auth` migration set (table `api_tokens`). */
export const AUTH_MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

/** Options of {@link tokens}. */
export interface TokensStepOptions {
  /** Clock in ms since the epoch (default the app's, `ctx.now`). */
  readonly now?: () => number;
}

/**
 * API tokens (docs/spec.md 2.2, 5.5).
 *
 * Adds the migration set `auth` (table `api_tokens`), `ctx.services.apiTokens`
 * and the `token` middleware for YAML groups (`api: { middleware: [token,
 * require] }`), which signs a request in by its `Authorization: Bearer`
 * token and checks the route's `abilities`. Needs `auth()` before it (the
 * user lookups).
 *
 * @example setup: [cache(), session(), auth(), tokens()]
 */
export function tokens(options: TokensStepOptions = {}): SetupStep {
  return {
    name: 'tokens',
    requires: [{ name: 'auth', call: 'auth()' }],
    migrations: [{ source: 'auth', dir: AUTH_MIGRATIONS_DIR }],
    setup(ctx) {
      const apiTokens = new ApiTokens(ctx.database.db, options.now ?? ctx.now);
      const services = ctx.services as { auth?: AuthService };
      ctx.services.apiTokens = apiTokens;
      ctx.addMiddleware(
        'token',
        createTokenMiddleware(apiTokens, () => services.auth!),
      );
    },
  };
}
