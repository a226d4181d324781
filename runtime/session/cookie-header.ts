/**
 * Reading one cookie from a `Cookie` header and writing a `Set-Cookie` line
 * (RFC 6265), for the session cookie (docs/sessions.md "The cookie").
 *
 * bindery does not register `@fastify/cookie`: it adds an `onSend` hook to
 * every route of the server (cookie-less JSON requests included), and the
 * `cookie` package it wraps declares Node ≥ 22. The session cookie needs one
 * name looked up and one line written, both done here: the values bindery
 * writes are base64url, so no encoding is involved.
 */

/** Attributes of a `Set-Cookie` line. */
export interface CookieAttributes {
  readonly path: string;
  readonly domain?: string | undefined;
  /** Seconds; 0 removes the cookie (with `Expires` in 1970 for old clients). */
  readonly maxAge: number;
  readonly httpOnly: boolean;
  readonly secure: boolean;
  readonly sameSite: 'lax' | 'strict' | 'none';
}

/**
 * The value of the first cookie named `name` in a `Cookie` header (browsers
 * send the most specific path first), or `undefined`. Surrounding quotes are
 * removed; no other decoding. Never throws.
 */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  const len = header.length;
  let start = 0;
  while (start < len) {
    let end = header.indexOf(';', start);
    if (end === -1) end = len;
    const eq = header.indexOf('=', start);
    if (eq !== -1 && eq < end && header.slice(start, eq).trim() === name) {
      let value = header.slice(eq + 1, end).trim();
      if (value.length >= 2 && value.charCodeAt(0) === 34 && value.charCodeAt(value.length - 1) === 34) value = value.slice(1, -1);
      return value;
    }
    start = end + 1;
  }
  return undefined;
}

const SAME_SITE = { lax: 'Lax', strict: 'Strict', none: 'None' } as const;

/**
 * A `Set-Cookie` header value. `value` must already be cookie-safe (bindery writes base64url).
 * @example serializeSetCookie('app_session', 'abc', { path: '/', maxAge: 7200, httpOnly: true, secure: false, sameSite: 'lax' })
 *   // "app_session=abc; Max-Age=7200; Path=/; HttpOnly; SameSite=Lax"
 */
export function serializeSetCookie(name: string, value: string, attributes: CookieAttributes): string {
  let line = `${name}=${value}; Max-Age=${Math.max(0, Math.floor(attributes.maxAge))}`;
  if (attributes.maxAge <= 0) line += '; Expires=Thu, 01 Jan 1970 00:00:00 GMT';
  if (attributes.domain !== undefined) line += `; Domain=${attributes.domain}`;
  line += `; Path=${attributes.path}`;
  if (attributes.httpOnly) line += '; HttpOnly';
  if (attributes.secure) line += '; Secure';
  line += `; SameSite=${SAME_SITE[attributes.sameSite]}`;
  return line;
}
