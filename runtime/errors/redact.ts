/**
 * Redaction of secrets in request details shown by debug pages (docs/spec.md 7, rule 2).
 */
import type { IncomingHttpHeaders } from 'node:http';

/** Headers whose values are never shown. */
export const REDACTED_HEADERS: readonly string[] = ['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-csrf-token'];

/** What replaces a redacted value. */
export const REDACTED = '[redacted]';

const SECRET_NAME = /password|secret|token|key/i;

/**
 * Headers with the values of {@link REDACTED_HEADERS} replaced by `[redacted]`,
 * sorted by name; repeated values joined with `, `. Never throws.
 */
export function redactHeaders(headers: IncomingHttpHeaders): Array<[string, string]> {
  return Object.keys(headers)
    .sort()
    .map((name): [string, string] => {
      const value = headers[name];
      if (REDACTED_HEADERS.includes(name.toLowerCase())) return [name, REDACTED];
      return [name, Array.isArray(value) ? value.join(', ') : String(value ?? '')];
    });
}

/**
 * A request URL with the values of query parameters whose names contain
 * `password`, `secret`, `token` or `key` replaced by `[redacted]`. Never throws.
 * @example redactUrl('/verify-email?token=abc&x=1') // "/verify-email?token=[redacted]&x=1"
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const parts = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const rawName = eq === -1 ? pair : pair.slice(0, eq);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      } catch {
        /* keep the raw name */
      }
      return eq !== -1 && SECRET_NAME.test(name) ? `${rawName}=${REDACTED}` : pair;
    });
  return `${url.slice(0, q)}?${parts.join('&')}`;
}
