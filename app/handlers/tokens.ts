/**
 * Handlers of the API token routes (docs/spec.md 2.2, 4.1, 5.5; docs/tokens.md):
 * create and revoke from the dashboard, and `GET /api/me` for API clients.
 */
import type { Handlers } from '../../generated/handlers.js';
import { policies } from '../../generated/policies.js';
import { routes } from '../../generated/routes.js';
import type { User } from '../../generated/types.js';
import type { ApiToken, ApiTokens } from 'bindery/auth/tokens';
import type { PolicyTable } from 'bindery/authorization';
import { requireService, type RequestContext } from 'bindery/http';
import type { RouteTable } from 'bindery/routing';
import { redirectToRoute } from 'bindery/results';
import { storageOf } from 'bindery/storage';
import { currentUser } from '../auth/users.js';

type TokensHandlers = Pick<Handlers, 'tokens.create' | 'tokens.delete' | 'api.me'>;

/**
 * The abilities a token may carry, sorted: every ability a route of a token
 * group asks for (`abilities:`), and that of the policy action it is
 * authorized by (`documents:write` for `documents.create`). An ability no
 * such route asks for would never let a token do anything.
 * @param table the route table (`generated/routes.ts`).
 * @param policyTable the policies (`generated/policies.ts`).
 * @returns e.g. `['documents:read', 'documents:write', 'profile:read']`.
 */
export function tokenAbilitiesOf(table: RouteTable, policyTable: PolicyTable): string[] {
  const found = new Set<string>();
  for (const route of table) {
    if (!route.middleware.includes('token')) continue;
    for (const ability of route.abilities ?? []) found.add(ability);
    const plan = route.authorize;
    const ability = plan === undefined ? undefined : policyTable[plan.policy]?.actions[plan.action]?.ability;
    if (ability !== undefined) found.add(ability);
  }
  return [...found].sort();
}

/**
 * What the dashboard offers when a token is made, `POST /tokens` accepts
 * (`abilities`, schema/tokens.yaml lists the same values) and the reference
 * app's API needs: `profile:read`, `documents:read`, `documents:write`
 * (docs/tokens.md "The reference app").
 */
export const TOKEN_ABILITIES: readonly string[] = tokenAbilitiesOf(routes, policies);
/** The abilities of a token made without any chosen (docs/spec.md 4.1 POST /tokens). */
export const DEFAULT_TOKEN_ABILITIES: readonly string[] = ['profile:read'];
/** Their lifetime: 90 days (docs/spec.md 8 "API token lifetime chosen by reference app"). */
export const DASHBOARD_TOKEN_LIFETIME_MS = 90 * 24 * 3_600_000;
/** The flash key of a freshly created plain token (shown once on the dashboard). */
export const NEW_TOKEN_FLASH = 'token';

function apiTokens(ctx: Pick<RequestContext, 'services'>): ApiTokens {
  return requireService(ctx.services, 'apiTokens', 'auth() and tokens()');
}

/** The signed-in user's authentication ID (member and api routes: the guards signed someone in). */
function userId(ctx: RequestContext): string {
  return ctx.auth.id!;
}

/**
 * The dashboard's token data (`app/views/partials/tokens.eta`): the user's
 * tokens, newest first, and the abilities a new one may have (checkboxes,
 * the default ones ticked). The freshly created plain token is read by the
 * partial from the flash (`it.flashed('token')`), so it shows once.
 * @example page('dashboard', { user, ...(await tokensPageData(ctx)) })
 */
export async function tokensPageData(
  ctx: RequestContext,
): Promise<{ tokens: ApiToken[]; abilities: readonly string[]; defaultAbilities: readonly string[] }> {
  return { tokens: await apiTokens(ctx).list(userId(ctx)), abilities: TOKEN_ABILITIES, defaultAbilities: DEFAULT_TOKEN_ABILITIES };
}

export const tokensHandlers = {
  'tokens.create': async (input, ctx) => {
    const { plain } = await apiTokens(ctx).create(userId(ctx), {
      name: input.name,
      // profile:read when none was sent: the field's default (schema/tokens.yaml).
      abilities: input.abilities,
      lifetimeMs: DASHBOARD_TOKEN_LIFETIME_MS,
    });
    ctx.session.flash(NEW_TOKEN_FLASH, plain);
    ctx.session.flash('status', ctx.t('app.flash.token_created'));
    return redirectToRoute('accounts.dashboard');
  },

  // The policy tokens.delete found the token and allowed it: the caller's own (another user's is 404, like an unknown one).
  'tokens.delete': async (_input, ctx, token) => {
    await apiTokens(ctx).revoke(userId(ctx), token.id);
    ctx.session.flash('status', ctx.t('app.flash.token_revoked'));
    return redirectToRoute('accounts.dashboard');
  },

  'api.me': async (_input, ctx) => {
    const user: User = await currentUser(ctx);
    // The whole row goes back: the route's shape (Me, schema/tokens.yaml) writes only its members — never the password hash.
    return { ...user, avatar_url: await storageOf(ctx.services).url(user.avatar) };
  },
} satisfies TokensHandlers;
