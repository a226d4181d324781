/**
 * The locale of a request (docs/i18n.md "The locale of a request"), decided
 * once on first use and kept with the request:
 *
 * 1. the signed-in user's `locale` column (noted by the route pipeline, see
 *    {@link noteUserLocale});
 * 2. the session's `locale` value;
 * 3. `Accept-Language` negotiated against the app's locales;
 * 4. `APP_LOCALE`.
 *
 * Once decided, the reply gets `Content-Language`, and `Vary: Accept-Language`
 * when the header was consulted (step 3 or 4).
 */
import type { FastifyReply } from 'fastify';
import { addVary } from '../support/vary.js';
import { negotiateLocale } from './negotiate.js';
import type { I18n } from './translator.js';

/** A decided locale, and whether `Accept-Language` was consulted. */
export interface ResolvedLocale {
  readonly locale: string;
  readonly negotiated: boolean;
}

/** What a request says about its locale. */
export interface LocaleSources {
  /** The signed-in user's stored preference. */
  readonly user?: string | null | undefined;
  /** The session's `locale` value. */
  readonly session?: unknown;
  /** The `Accept-Language` header. */
  readonly acceptLanguage?: string | undefined;
}

/**
 * Decide the locale by the order above. Never throws.
 * @example resolveLocale(i18n, { acceptLanguage: 'de' }) // { locale: 'de', negotiated: true }
 */
export function resolveLocale(i18n: I18n, sources: LocaleSources): ResolvedLocale {
  const user = i18n.supported(sources.user);
  if (user !== undefined) return { locale: user, negotiated: false };
  const session = typeof sources.session === 'string' ? i18n.supported(sources.session) : undefined;
  if (session !== undefined) return { locale: session, negotiated: false };
  const negotiated = negotiateLocale(sources.acceptLanguage, i18n.locales);
  return { locale: negotiated ?? i18n.defaultLocale, negotiated: true };
}

const decided = new WeakMap<object, ResolvedLocale>();
const users = new WeakMap<object, string | null>();

/** Note the signed-in user's `locale` column for `request` (before anything asks for its locale). */
export function noteUserLocale(request: object, locale: string | null | undefined): void {
  users.set(request, locale ?? null);
}

/**
 * The locale of `request`, deciding it on first use (`sources` read only
 * then) and writing `Content-Language` (and `Vary: Accept-Language` when
 * negotiated) to `reply` while its headers are still open. Never throws.
 */
export function localeOfRequest(i18n: I18n, request: object, reply: FastifyReply | undefined, sources: () => LocaleSources): string {
  let resolved = decided.get(request);
  if (resolved === undefined) {
    resolved = resolveLocale(i18n, { user: users.get(request), ...sources() });
    decided.set(request, resolved);
    if (reply !== undefined && !reply.sent && !reply.raw.headersSent) {
      reply.header('content-language', resolved.locale);
      if (resolved.negotiated) addVary(reply, 'Accept-Language');
    }
  }
  return resolved.locale;
}
