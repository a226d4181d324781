/**
 * The `Content-Security-Policy` header (docs/http.md "Content-Security-Policy"):
 * a strict default sent with every response, replaceable per app (the
 * `contentSecurityPolicy` app option) and per deployment (`HTTP_CSP`).
 */
import { createHash } from 'node:crypto';
import type { SettingParser } from './setting.js';
import { ERROR_PAGE_STYLE } from '../errors/html.js';
import { BinderyError } from '../errors/bindery-error.js';

/** The `'sha256-…'` source of an inline `<style>` or `<script>` body, as CSP compares it. */
export function cspHash(inline: string): string {
  return `'sha256-${createHash('sha256').update(inline, 'utf8').digest('base64')}'`;
}

/**
 * The default policy: everything from this origin only; no inline script,
 * no `eval`, no inline style except the built-in error page's (by its hash),
 * no plugins (`object-src 'none'`), no `<base>` (`base-uri 'none'`), forms
 * post only here, framing only by this origin (as `X-Frame-Options:
 * SAMEORIGIN`), images also as `data:` URLs.
 */
export const DEFAULT_CONTENT_SECURITY_POLICY: string = [
  "default-src 'self'",
  "script-src 'self'",
  `style-src 'self' ${cspHash(ERROR_PAGE_STYLE)}`,
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'self'",
].join('; ');

/** What a policy may be configured as: a policy text, or `false` for none. */
export type ContentSecurityPolicyOption = string | false;

/**
 * Check a policy text: one line of `;`-separated directives, each a name
 * (letters and `-`) and its sources, printable ASCII only.
 * @returns the policy with directives trimmed and empty ones dropped, or an error message.
 */
export function checkPolicy(text: string): { ok: true; value: string } | { ok: false; message: string } {
  if (!/^[\x20-\x7e]*$/.test(text))
    return { ok: false, message: 'it holds a control or non-ASCII character (a header value is one line of printable ASCII)' };
  const directives = text
    .split(';')
    .map((d) => d.trim())
    .filter((d) => d !== '');
  if (directives.length === 0) return { ok: false, message: 'it names no directive; use "off" for no policy' };
  for (const d of directives) {
    const name = d.split(' ', 1)[0]!;
    if (!/^[a-z][a-z-]*$/i.test(name)) return { ok: false, message: `"${name}" is not a directive name (e.g. default-src, script-src)` };
  }
  return { ok: true, value: directives.join('; ') };
}

/** The parser of `HTTP_CSP`: a policy, or `off` for none. */
export function policySetting(): SettingParser<ContentSecurityPolicyOption> {
  return {
    allowed: `a Content-Security-Policy (directives separated by ";"), or off`,
    parse(text) {
      if (text.trim().toLowerCase() === 'off') return { ok: true, value: false };
      const checked = checkPolicy(text);
      return checked.ok ? checked : { ok: false, message: checked.message };
    },
  };
}

/**
 * The policy a server sends: the `HTTP_CSP` setting when set, else the
 * app's `contentSecurityPolicy` option, else {@link DEFAULT_CONTENT_SECURITY_POLICY}.
 * @returns the header value, or `null` for none.
 * @throws {TypeError} when the app option is not a valid policy (the message says why).
 */
export function resolvePolicy(
  setting: ContentSecurityPolicyOption | undefined,
  appOption: ContentSecurityPolicyOption | undefined,
): string | null {
  if (setting !== undefined) return setting === false ? null : setting;
  if (appOption === undefined) return DEFAULT_CONTENT_SECURITY_POLICY;
  if (appOption === false) return null;
  const checked = checkPolicy(appOption);
  if (!checked.ok)
    throw new BinderyError('BINDERY_SETUP_INVALID', `The app's contentSecurityPolicy is not a valid policy: ${checked.message}.`);
  return checked.value;
}
