/**
 * A middleware's look at the outcome of the whole chain, without adding a
 * promise turn to every request (docs/sessions.md "How the session is
 * written").
 *
 * A middleware that must act on the result or error before it is written —
 * the session middleware writes its cookie and turns a browser form's
 * validation failure into a redirect — could chain `next().then(…)`, but
 * each extra turn costs measurably on every request. Instead it sets
 * `ctx.outcomeHook` (one slot; a shared object, no per-request allocation)
 * and the pipeline calls it once the chain has finished, before anything is
 * written. A hook runs after every middleware's own code, so it behaves as
 * the outermost middleware.
 */
import type { RequestContext } from './context.js';

/**
 * What {@link OutcomeHook.onError} returns (directly or as a promise) to have
 * the chain's error rendered as it is. Returning it costs nothing; throwing
 * the error again would cost a few microseconds per failed request.
 */
export const KEEP_ERROR: unique symbol = Symbol('bindery.keepError');

/** What the pipeline calls once the middleware chain has finished. */
export interface OutcomeHook {
  /**
   * The chain's result, about to be written.
   * @returns the result to write (the same, or another), directly or as a promise.
   */
  onResult(ctx: RequestContext, result: unknown): unknown;
  /**
   * The chain failed.
   * @returns {@link KEEP_ERROR} to have the error rendered, or a result to write instead, directly or as a
   *   promise; or throws another error to have that one rendered.
   */
  onError(ctx: RequestContext, error: unknown): unknown;
}
