/**
 * The tokens Conduit hands out at sign-up and login (README.md "Tokens"):
 * bindery API tokens (`ctx.services.apiTokens`, docs/tokens.md in the
 * bindery package) that expire after `CONDUIT_TOKEN_LIFETIME`, at most
 * `CONDUIT_TOKENS_PER_USER` of them live per user (a new one revokes the
 * oldest, and the expired ones go), and a password change ends every one
 * but the caller's.
 */
import type { SetupStep } from 'bindery/app';
import type { ApiTokens } from 'bindery/auth/tokens';
import { defineSettings, durationSetting, integerSetting } from 'bindery/config';

/** The name of every Conduit token (the only tokens pruned here). */
const TOKEN_NAME = 'conduit';

/** The settings of {@link conduitTokens}. */
export const tokenSettings = defineSettings({
  CONDUIT_TOKEN_LIFETIME: {
    description: 'How long a token from sign-up or login signs in; after it the token answers 401 and the front end asks to sign in again.',
    parser: durationSetting({ min: 60_000 }),
    default: '720h',
  },
  CONDUIT_TOKENS_PER_USER: {
    description: 'How many tokens one user may have live (one per signed-in browser or device); a login past it revokes the oldest.',
    parser: integerSetting({ min: 1, max: 1000 }),
    default: '10',
  },
});

/** Issues, prunes and revokes the users' Conduit tokens (`ctx.services.conduitTokens`). */
export class ConduitTokens {
  readonly #apiTokens: ApiTokens;
  readonly #lifetimeMs: number;
  readonly #perUser: number;
  readonly #now: () => number;

  /**
   * @param apiTokens bindery's API tokens.
   * @param lifetimeMs how long a new token lives, ms.
   * @param perUser live tokens kept per user.
   * @param now the app's clock, ms since the epoch.
   */
  constructor(apiTokens: ApiTokens, lifetimeMs: number, perUser: number, now: () => number) {
    this.#apiTokens = apiTokens;
    this.#lifetimeMs = lifetimeMs;
    this.#perUser = perUser;
    this.#now = now;
  }

  /**
   * A new token for `userId` (the plain `<id>|<secret>`), then the user's
   * expired tokens and the live ones past the newest `perUser` revoked.
   */
  async issue(userId: string): Promise<string> {
    const { plain } = await this.#apiTokens.create(userId, { name: TOKEN_NAME, abilities: ['conduit'], lifetimeMs: this.#lifetimeMs });
    const now = this.#now();
    let live = 0;
    for (const token of await this.#apiTokens.list(userId)) {
      if (token.name !== TOKEN_NAME) continue;
      const expired = token.expiresAt !== null && token.expiresAt.getTime() <= now;
      if (!expired && ++live <= this.#perUser) continue;
      await this.#apiTokens.revoke(userId, token.id);
    }
    return plain;
  }

  /**
   * Revoke every token of `userId` but `keepId` (the one the request came
   * with), after a password change.
   * @returns how many were revoked.
   */
  async revokeOthers(userId: string, keepId: string): Promise<number> {
    let revoked = 0;
    for (const token of await this.#apiTokens.list(userId)) {
      if (String(token.id) !== keepId && (await this.#apiTokens.revoke(userId, token.id))) revoked++;
    }
    return revoked;
  }
}

declare module 'bindery/http' {
  interface Services {
    /** Conduit's tokens; set up by {@link conduitTokens}. */
    conduitTokens?: ConduitTokens;
  }
}

/** The setup step of {@link ConduitTokens}, with its settings; after `tokens()`. */
export function conduitTokens(): SetupStep {
  return {
    name: 'conduit-tokens',
    call: 'conduitTokens()',
    requires: [{ name: 'tokens', call: 'tokens()' }],
    settings: tokenSettings,
    setup(ctx) {
      const settings = ctx.settingsOf(tokenSettings);
      const apiTokens = ctx.services['apiTokens'] as ApiTokens;
      ctx.services['conduitTokens'] = new ConduitTokens(
        apiTokens,
        settings.CONDUIT_TOKEN_LIFETIME,
        settings.CONDUIT_TOKENS_PER_USER,
        ctx.now,
      );
    },
  };
}
