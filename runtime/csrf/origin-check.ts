/**
 * CSRF layer 1 (docs/spec.md 5.4): requests the browser marks as cross-site are
 * refused; requests with neither `Sec-Fetch-Site` nor `Origin` pass on to
 * the token check (docs/csrf.md "Layer 1").
 */
import type { IncomingHttpHeaders } from 'node:http';

/**
 * Whether the request comes from this site as far as the browser says.
 *
 * - `Sec-Fetch-Site: same-origin` or `none` (typed by the user) pass;
 *   `same-site` (a sibling subdomain, which may be someone else's) and
 *   `cross-site` are refused.
 * - Without `Sec-Fetch-Site`, an `Origin` header must name this host (its
 *   host and port equal to `Host`); `Origin: null` is refused.
 * - With neither header (old browsers, non-browser clients) it passes.
 *
 * Never throws.
 */
export function sameOriginRequest(headers: IncomingHttpHeaders): boolean {
  const site = headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin' || site === 'none';
  const origin = headers.origin;
  if (origin === undefined) return true;
  const host = headers.host;
  if (typeof host !== 'string' || origin === 'null') return false;
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.host === host.toLowerCase();
  } catch {
    return false;
  }
}
