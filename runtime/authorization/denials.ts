/**
 * Answering a refused request (docs/authorization.md "403 or 404"): the
 * error for its status, the log line (policy, action, reason, user — no
 * row data), and the denial listeners (the audit log's, with
 * `AUDIT_DENIALS=true`).
 *
 * | refused because | status | code |
 * |---|---|---|
 * | a guest, where the rule needs a signed-in user | 401 | `BINDERY_TOKEN_MISSING` on bearer-token routes, else `BINDERY_AUTH_UNAUTHENTICATED` |
 * | the bearer token lacks the action's ability | 403 | `BINDERY_TOKEN_ABILITY_MISSING` |
 * | the rule, on a policy with `hideExistence` and a row the caller may not view | 404 | `BINDERY_NOT_FOUND` (the same answer as a row that does not exist) |
 * | the rule | 403 | `BINDERY_POLICY_DENIED` |
 */
import type { FastifyBaseLogger } from 'fastify';
import { HttpError } from '../errors/http-error.js';
import type { Decision, Denial, Policies, PolicySubject } from './policies.js';

/** What a refusal needs of the request. */
export interface DenialContext {
  readonly auth: PolicySubject;
  readonly log: FastifyBaseLogger;
  /** The route, when the refusal is a route's (its name is logged; bearer-token routes answer a guest with a Bearer challenge). */
  readonly route?: { readonly name: string; readonly middleware: readonly string[] } | null;
}

/** The refused decision and what it was about. */
export interface Refusal {
  readonly policy: string;
  readonly action: string;
  readonly decision: Extract<Decision, { allowed: false }>;
  /** The row's table and key (null without a row). */
  readonly table: string;
  readonly key: string | null;
  /** The key as the request named the row (its slug, say), shown in messages; null without a row. */
  readonly shown: string | null;
  /** What a row is called in messages (`Document`). */
  readonly label: string;
  /** Answer 404, as for a row that does not exist (existence hidden). */
  readonly hide: boolean;
  /** The route refusing, when it is the route's own check. */
  readonly route: string | null;
}

/** The 404 of a row that does not exist, and of one whose existence a policy hides: the same words. */
export function rowNotFound(label: string, key: unknown): HttpError {
  return new HttpError('BINDERY_NOT_FOUND', `${label} ${String(key)} does not exist.`);
}

/**
 * Log the refusal, tell the listeners, and give the error to throw.
 * Never throws itself; a listener that throws is logged.
 */
export async function refuse(ctx: DenialContext, policies: Policies, refusal: Refusal): Promise<HttpError> {
  const { decision } = refusal;
  const status: Denial['status'] = refusal.hide ? 404 : decision.reason === 'guest' ? 401 : 403;
  const denial: Denial = {
    policy: refusal.policy,
    action: refusal.action,
    reason: decision.reason,
    status,
    table: refusal.table,
    key: refusal.key,
    user: ctx.auth.id,
    route: refusal.route,
    ...(decision.ability !== undefined ? { ability: decision.ability } : {}),
  };
  ctx.log.info(
    {
      code: 'BINDERY_POLICY_DENIED',
      policy: denial.policy,
      action: denial.action,
      reason: denial.reason,
      status,
      user: denial.user,
      ...(denial.route !== null ? { route: denial.route } : {}),
      ...(denial.ability !== undefined ? { ability: denial.ability } : {}),
    },
    `authorization denied: ${denial.policy}.${denial.action} (${denial.reason})`,
  );
  for (const listener of policies.denialListeners) {
    try {
      await listener(denial);
    } catch (error) {
      ctx.log.error(
        { err: error, policy: denial.policy, action: denial.action },
        'a denial listener failed; the request is refused all the same',
      );
    }
  }
  return denialError(ctx, refusal, status);
}

function denialError(ctx: DenialContext, refusal: Refusal, status: Denial['status']): HttpError {
  const name = `${refusal.policy}.${refusal.action}`;
  if (status === 404) return rowNotFound(refusal.label, refusal.shown);
  if (status === 401) {
    if (ctx.route?.middleware.includes('token') === true) {
      return new HttpError('BINDERY_TOKEN_MISSING', 'This route needs a bearer token: send Authorization: Bearer <id>|<secret>.', {
        headers: { 'www-authenticate': 'Bearer' },
      });
    }
    return new HttpError('BINDERY_AUTH_UNAUTHENTICATED', 'You are not signed in; sign in and try again.');
  }
  const ability = refusal.decision.ability;
  if (ability !== undefined) {
    return new HttpError('BINDERY_TOKEN_ABILITY_MISSING', `This token may not do this: it lacks the ability ${ability} (${name}).`, {
      headers: { 'www-authenticate': `Bearer error="insufficient_scope", scope="${ability}"` },
    });
  }
  const what = refusal.shown === null ? '' : ` on ${refusal.label} ${refusal.shown}`;
  return new HttpError('BINDERY_POLICY_DENIED', `You may not do ${name}${what}.`);
}
