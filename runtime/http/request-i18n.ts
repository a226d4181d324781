/**
 * The translations of a request (docs/i18n.md): the app's {@link I18n}
 * (`ctx.services.i18n`, set by the `i18n()` step) reachable from any request
 * of its server, the request's locale, and errors worded in it.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../errors/http-error.js';
import type { LocalizedMessage } from '../errors/localized-message.js';
import { localeOfRequest } from '../i18n/request-locale.js';
import type { I18n, MessageValues } from '../i18n/translator.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The app's translations, when `i18n()` is set up. @internal */
    readonly binderyI18n: I18n | undefined;
  }
}

/** What the locale reads of a session: its `locale` value, only when the request carried the cookie. */
export interface LocaleSession {
  readonly hasCookie: boolean;
  get(key: string): unknown;
}

/** Make `i18n` reachable from every request of `app` (no per-request cost). */
export function provideI18n(app: FastifyInstance, i18n: I18n | undefined): void {
  app.decorateRequest('binderyI18n', { getter: () => i18n });
}

/** The app's translations for `request`, or `undefined` without `i18n()`. */
export function i18nOf(request: FastifyRequest): I18n | undefined {
  return (request as { binderyI18n?: I18n }).binderyI18n;
}

/**
 * The locale of `request` (decided on first use; see runtime/i18n/request-locale.ts),
 * or `undefined` without `i18n()`. Never throws.
 */
export function requestLocale(request: FastifyRequest, reply: FastifyReply | undefined, session?: LocaleSession): string | undefined {
  const i18n = i18nOf(request);
  if (i18n === undefined) return undefined;
  return localeOfRequest(i18n, request, reply, () => ({
    session: session?.hasCookie === true ? session.get('locale') : undefined,
    acceptLanguage: request.headers['accept-language'],
  }));
}

/** `message` worded in `locale`, its field placeholders named by `attributes.<field>` when the catalog has them. */
export function wordMessage(i18n: I18n, locale: string, message: LocalizedMessage): string {
  const values: Record<string, string | number> = { ...message.values };
  for (const [name, field] of Object.entries(message.fields ?? {})) {
    const key = `attributes.${field}`;
    if (i18n.text(locale, key) !== undefined || i18n.text(i18n.fallbackLocale, key) !== undefined) values[name] = i18n.t(locale, key);
  }
  return i18n.t(locale, message.key, values as MessageValues);
}

const localized = new WeakSet<HttpError>();

/**
 * Replace the field errors of `thrown` that carry catalog messages by their
 * words in the request's locale (once per error). Nothing for other errors,
 * or without `i18n()`. Never throws.
 */
export function localizeError(request: FastifyRequest, reply: FastifyReply | undefined, thrown: unknown, session?: LocaleSession): void {
  if (!(thrown instanceof HttpError) || thrown.fieldMessages === undefined || localized.has(thrown)) return;
  const i18n = i18nOf(request);
  if (i18n === undefined) return;
  const locale = requestLocale(request, reply, session)!;
  localized.add(thrown);
  const out: Record<string, string> = { ...thrown.fieldErrors };
  for (const [field, message] of Object.entries(thrown.fieldMessages)) out[field] = wordMessage(i18n, locale, message);
  thrown.fieldErrors = out;
}
