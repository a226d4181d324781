/**
 * How the account routes answer (docs/auth.md "JSON and forms"): JSON
 * clients get Fortify's JSON answers, browsers and forms a redirect with a
 * flashed status.
 */
import type { RequestContext } from '../../http/context.js';

/**
 * Whether the request is answered as an API call (JSON) rather than a page
 * or form: the client asks for JSON (`Accept`, a JSON body,
 * `X-Requested-With`), or is plain htmx, or is neither a browser nor htmx.
 */
export function answersJson(ctx: Pick<RequestContext, 'client'>): boolean {
  const c = ctx.client;
  if (c.wantsJson) return true;
  if (c.isHtmx) return !c.isHtmxBoosted;
  return !c.isBrowser;
}
