/**
 * The `token` middleware: who a request is, by its bearer token (docs/spec.md
 * 5.5, 7 "401 … API route without a valid token"; RFC 6750 section 3;
 * docs/tokens.md "The token middleware").
 *
 * - `Authorization: Bearer <id>|<secret>` (the scheme in any case; a group
 *   may name another, `token: { scheme: Token }`, docs/tokens.md "The
 *   scheme of a group"): the
 *   token is checked; a valid one signs the request in as its owner
 *   (`ctx.auth.via === 'token'`, `ctx.auth.token`) and its last use is
 *   recorded (at most once a minute). A malformed, unknown, wrong, expired or
 *   revoked token, or one whose owner is gone, is 401 with
 *   `WWW-Authenticate: Bearer error="invalid_token"`.
 * - No `Authorization`, or another scheme (`Basic …`): the request stays as
 *   it is (a guest, or the user of a session when `auth` ran before). A 401
 *   from later on (the `require` guard) then carries `WWW-Authenticate: Bearer`.
 * - The route's `abilities`: a token lacking one is 403 (`WWW-Authenticate:
 *   Bearer error="insufficient_scope"`); a session user has every ability
 *   (policies still bind it: docs/authorization.md); a guest is 401.
 */
import { HttpError } from '../../errors/http-error.js';
import type { RequestContext } from '../../http/context.js';
import type { BeforeMiddleware } from '../../http/handler.js';
import { KEEP_ERROR, type OutcomeHook } from '../../http/outcome-hook.js';
import type { HttpRequestContext } from '../../http/request-context.js';
import type { AuthService } from '../auth-service.js';
import { RequestAuth } from '../../context/request-auth.js';
import '../../http/auth-context.js';
import type { ApiTokens } from './api-tokens.js';
import { DEFAULT_TOKEN_SCHEME, presentedToken, tokenSchemeOf } from './token-scheme.js';
import { internalCallOf } from '../../http/internal-call.js';

/**
 * The ability that limits a token to MCP (docs/mcp.md "Tokens for agents"):
 * such a token is refused on every route but through the MCP endpoint's
 * tool calls.
 */
export const MCP_ONLY_ABILITY = 'mcp:only';

const INVALID_TOKEN = (scheme: string) => `${scheme} error="invalid_token"`;
const INSUFFICIENT_SCOPE = (scheme: string, abilities: readonly string[]) =>
  `${scheme} error="insufficient_scope", scope="${abilities.join(' ')}"`;

/**
 * The bearer credentials of a request: `undefined` without an
 * `Authorization: Bearer` header, else the token text (possibly empty).
 * For the scheme of the route's group, use {@link presentedToken}.
 */
export function bearerToken(ctx: Pick<RequestContext, 'request' | 'route'>): string | undefined {
  return presentedToken(ctx, DEFAULT_TOKEN_SCHEME);
}

function invalidToken(scheme: string): HttpError {
  return new HttpError('BINDERY_TOKEN_INVALID', 'The token is invalid, expired or revoked; sign in again or create a new one.', {
    headers: { 'www-authenticate': INVALID_TOKEN(scheme) },
  });
}

function missingToken(scheme: string): HttpError {
  return new HttpError('BINDERY_TOKEN_MISSING', `This route needs an API token: send Authorization: ${scheme} <token>.`, {
    headers: { 'www-authenticate': scheme },
  });
}

/**
 * The `token` middleware over `tokens` and the app's user lookups. It runs
 * before the rest of the pipeline (no promise turn of its own around it):
 * a request it leaves a guest gets an outcome hook that adds the
 * `WWW-Authenticate` challenge to a later 401 (runtime/http/outcome-hook.ts).
 * @param auth read when a request comes (the `auth()` step sets it up).
 */
export function createTokenMiddleware(tokens: ApiTokens, auth: () => AuthService): BeforeMiddleware {
  return {
    before(ctx) {
      const scheme = tokenSchemeOf(ctx.route);
      const plain = presentedToken(ctx, scheme);
      if (plain === undefined) return checkAbilities(ctx, scheme);
      return signIn(ctx, plain, scheme, tokens, auth());
    },
  };
}

/** Sign the request in as the owner of the token `plain`, then check the route's abilities. @throws {HttpError} 401 for a token that does not check out, 403 for a missing ability. */
async function signIn(ctx: RequestContext, plain: string, scheme: string, tokens: ApiTokens, auth: AuthService): Promise<undefined> {
  const token = await tokens.check(plain);
  if (token === null) throw invalidToken(scheme);
  const user = await auth.users.findById(token.userId);
  if (user === null) throw invalidToken(scheme);
  if (token.abilities.includes(MCP_ONLY_ABILITY) && internalCallOf(ctx.request)?.via.kind !== 'mcp')
    throw new HttpError(
      'BINDERY_TOKEN_ABILITY_MISSING',
      `This token is for MCP clients only (${MCP_ONLY_ABILITY}): call the app's tools at its MCP endpoint.`,
      {
        headers: { 'www-authenticate': INSUFFICIENT_SCOPE(scheme, ctx.route.abilities ?? []) },
      },
    );
  ctx.auth = new RequestAuth({
    via: 'token',
    id: token.userId,
    load: () => Promise.resolve(user),
    token: { id: String(token.id), name: token.name, abilities: token.abilities },
  });
  // At most once a minute: most requests skip the call and its promise.
  if (tokens.touchDue(token)) await tokens.touch(token);
  // Checked here rather than in a `.then` after: one promise less per request.
  return checkAbilities(ctx, scheme);
}

/**
 * The route's abilities, once the request is signed in or not: `undefined`
 * to go on. A guest on a route with abilities is 401; a guest elsewhere
 * goes on, with the challenge for a later 401 set up.
 * @throws {HttpError} 401 (no token) or 403 (a token lacking an ability).
 */
function checkAbilities(ctx: RequestContext, scheme: string): undefined {
  const abilities = ctx.route.abilities;
  if (!ctx.auth.signedIn) {
    if (abilities !== undefined && abilities.length > 0) throw missingToken(scheme);
    const http = ctx as HttpRequestContext;
    http.outcomeHook = challengeOn401(scheme, http.outcomeHook);
    return undefined;
  }
  if (abilities === undefined || abilities.length === 0) return undefined;
  let granted = true;
  for (let i = 0; i < abilities.length && granted; i++) granted = ctx.auth.can(abilities[i]!);
  if (granted) return undefined;
  const missing = abilities.filter((a) => !ctx.auth.can(a));
  throw new HttpError(
    'BINDERY_TOKEN_ABILITY_MISSING',
    `This token may not do this: it lacks the ${missing.length === 1 ? 'ability' : 'abilities'} ${missing.join(', ')}.`,
    { headers: { 'www-authenticate': INSUFFICIENT_SCOPE(scheme, abilities) } },
  );
}

/**
 * The outcome hook of a guest's request on a token route: a 401 from
 * later on (the `require` guard, a policy) tells an API client how to
 * authenticate. An earlier middleware's hook (the session's) still runs after.
 */
function challengeOn401(scheme: string, previous: OutcomeHook | undefined): OutcomeHook {
  return {
    onResult: (ctx, result) => (previous === undefined ? result : previous.onResult(ctx, result)),
    onError(ctx, error) {
      if ((error as { status?: unknown })?.status === 401 && !ctx.reply.hasHeader('www-authenticate'))
        ctx.reply.header('www-authenticate', scheme);
      return previous === undefined ? KEEP_ERROR : previous.onError(ctx, error);
    },
  };
}
