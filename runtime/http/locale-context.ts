/**
 * `ctx.locale` and `ctx.t` on the request context (docs/i18n.md), declared
 * here by declaration merging and implemented by request-context.ts.
 */
import type { MessageValues } from '../i18n/translator.js';

declare module './context.js' {
  interface RequestContext {
    /** The request's locale: the user's, the session's, `Accept-Language`'s, else `APP_LOCALE` (docs/i18n.md). `en` without `i18n()`. */
    readonly locale: string;
    /**
     * The message `key` of the catalogs in the request's locale, ICU `values` filled in.
     * @throws {BinderyError} `BINDERY_SERVICE_NOT_SET_UP` without `i18n()`.
     * @example ctx.session.flash('status', ctx.t('app.notes.created'))
     */
    t(key: string, values?: MessageValues): string;
  }
}

export {};
