/**
 * The `session` middleware (docs/spec.md 5.1 rule 1: session, then CSRF, then
 * auth; ARCHITECTURE.md "Request flow"; docs/sessions.md).
 *
 * Per request it makes the lazy {@link Session} (`ctx.session`) and lets
 * the rest of the pipeline run. Once the chain has finished — through the
 * pipeline's outcome hook, so no promise turn is added to requests that
 * never touch the session — it turns a browser form's validation failure
 * into the form round trip (docs/spec.md 7 rule 6), and writes the session before
 * the response: right away for most results, after rendering for pages (so
 * a CSRF token made while rendering is saved).
 */
import type { RequestContext } from '../http/context.js';
import type { BeforeMiddleware } from '../http/handler.js';
import { KEEP_ERROR, type OutcomeHook } from '../http/outcome-hook.js';
import type { HttpRequestContext } from '../http/request-context.js';
import { RESULT, redirect, type TaggedResult } from '../results/result.js';
import { flashRoundTrip, roundTripErrors } from './form-round-trip.js';
import { Session } from './session.js';
import type { SessionManager } from './session-manager.js';

/**
 * The session middleware of an app.
 * @param manager from `createSessionManager`.
 */
export function createSessionMiddleware(manager: SessionManager): BeforeMiddleware {
  const eager = manager.store.eager;
  return {
    before(context) {
      const ctx = context as HttpRequestContext;
      const s = new Session(manager, ctx);
      ctx.sessionState = s;
      ctx.outcomeHook = SESSION_OUTCOME;
      return eager && s.hasCookie ? s.preload() : undefined;
    },
  };
}

const SESSION_OUTCOME: OutcomeHook = {
  onResult(context, result) {
    const ctx = context as HttpRequestContext;
    const s = ctx.sessionState!;
    if (isPage(result)) {
      s.deferCommit();
      return result;
    }
    const writing = s.commit();
    return writing === undefined ? result : writing.then(() => result);
  },
  onError(context, error) {
    return failed(context as HttpRequestContext, error);
  },
};

/**
 * The chain failed: a browser form's validation failure becomes the form
 * round trip (a redirect), any other error is kept (rendered as it is), once
 * the session is written. Synchronous when there is nothing to write.
 */
function failed(ctx: HttpRequestContext & RequestContext, error: unknown): unknown {
  const s = ctx.sessionState!;
  const fieldErrors = roundTripErrors(ctx, error);
  if (fieldErrors !== undefined) {
    const target = flashRoundTrip(ctx, fieldErrors);
    const writing = s.commit();
    return writing === undefined ? redirect(target) : writing.then(() => redirect(target));
  }
  const writing = s.commit();
  return writing === undefined ? KEEP_ERROR : writing.then(() => KEEP_ERROR);
}

function isPage(result: unknown): boolean {
  return typeof result === 'object' && result !== null && (result as Partial<TaggedResult>)[RESULT] === 'page';
}
