/**
 * Redirect targets that stay on this site (docs/http.md "Redirects"). Every
 * place that sends a browser to a target it was given — the failed-form
 * redirect (from the `Referer`), the page remembered for after login,
 * `redirect(url)` results — goes through {@link isLocalPath}, so a crafted
 * value can never make the site an open redirect.
 */

/** The base a path is resolved against to see where a browser would go. */
const PROBE_BASE = 'http://bindery.invalid';
const PROBE_ORIGIN = new URL(PROBE_BASE).origin;

/**
 * Whether `text` is a path on this site, safe as a `Location`: it starts
 * with exactly one `/`, holds no backslash, whitespace (any Unicode space),
 * control character or non-ASCII character, and resolves to the same origin
 * it is read from. Refused, among others: `//evil.example`,
 * `/\evil.example`, `/\t/evil.example`, `https://evil.example/`,
 * `javascript:…`, `evil.example`. Percent-encoded slashes (`/%2F%2Fevil`)
 * pass: browsers keep them encoded, so they name a path here.
 * Never throws.
 */
export function isLocalPath(text: string): boolean {
  if (typeof text !== 'string' || text.length === 0 || text.length > 8192) return false;
  if (text.charCodeAt(0) !== 0x2f /* / */) return false;
  if (text.length > 1 && (text.charCodeAt(1) === 0x2f || text.charCodeAt(1) === 0x5c)) return false;
  // Printable ASCII only, and no backslash anywhere (browsers read it as "/").
  if (!/^[\x21-\x7e]*$/.test(text) || text.includes('\\')) return false;
  try {
    const url = new URL(text, PROBE_BASE);
    return url.origin === PROBE_ORIGIN && !url.pathname.startsWith('//');
  } catch {
    return false;
  }
}

/**
 * `target` when it is a path on this site ({@link isLocalPath}), else
 * `fallback`. For redirects to a target a request supplied (a `?next=`
 * parameter, a remembered page):
 *
 * @example return redirect(localPathOr(input.next, '/dashboard'))
 * @param target the untrusted target (anything; non-strings give `fallback`).
 * @param fallback a path on this site (not checked).
 */
export function localPathOr(target: unknown, fallback: string): string {
  return typeof target === 'string' && isLocalPath(target) ? target : fallback;
}

/**
 * The path and query of an absolute URL, when it is on `host` (http or
 * https, same host and port) and that path is a local one; else `null`.
 * Used for the `Referer` of a failed form. Never throws.
 * @param url an absolute URL (a `Referer` header).
 * @param host the request's `Host` header.
 */
export function sameHostPath(url: string, host: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.host !== host.toLowerCase()) return null;
  const path = `${parsed.pathname}${parsed.search}`;
  return isLocalPath(path) ? path : null;
}
