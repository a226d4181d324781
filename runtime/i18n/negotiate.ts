/**
 * `Accept-Language` negotiation (RFC 9110 12.5.4; docs/i18n.md "The locale of a request"),
 * through `negotiator`.
 */
import Negotiator from 'negotiator';

/**
 * The best of `locales` for an `Accept-Language` header, or `undefined`
 * when the header is absent or accepts none of them. `de-AT` in the
 * header matches the locale `de`; `q=0` refuses a locale. Never throws.
 * @example negotiateLocale('de-AT,de;q=0.9,en;q=0.5', ['en', 'de']) // 'de'
 */
export function negotiateLocale(header: string | undefined, locales: readonly string[]): string | undefined {
  if (header === undefined || header.trim() === '' || locales.length === 0) return undefined;
  const best = new Negotiator({ headers: { 'accept-language': header } }).languages([...locales]);
  return best[0];
}
