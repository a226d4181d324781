/**
 * The back office's words (docs/i18n.md "backoffice.*"): the request's
 * translator, or bindery's English catalog when the app has no `i18n()`
 * (whose `ctx.t` / `it.t` then throw `BINDERY_SERVICE_NOT_SET_UP`).
 */
import { BinderyError } from '../errors/bindery-error.js';
import { FRAMEWORK_LANG_DIR, loadCatalogs } from '../i18n/catalog.js';
import { I18n, type MessageValues, type Translate } from '../i18n/translator.js';
import type { RequestContext } from '../http/context.js';

let english: I18n | undefined;

/** A text of bindery's own English catalog (read once, on first use). */
function englishText(key: string, values?: MessageValues): string {
  english ??= new I18n({
    catalogs: loadCatalogs([{ dir: FRAMEWORK_LANG_DIR, owner: 'bindery' }]),
    locales: ['en'],
    defaultLocale: 'en',
    fallbackLocale: 'en',
  });
  return english.t('en', key, values);
}

/**
 * `pageT` (a page's `it.t`, a request's `ctx.t`), or bindery's English texts
 * when the app has no `i18n()` and `pageT` throws `BINDERY_SERVICE_NOT_SET_UP`.
 * @example withEnglishFallback(ctx.t)('backoffice.show.edit') // 'Edit' without i18n()
 */
export function withEnglishFallback(pageT: Translate | undefined): Translate {
  return (key, values) => {
    if (pageT !== undefined) {
      try {
        return pageT(key, values);
      } catch (err) {
        if (!(err instanceof BinderyError && err.code === 'BINDERY_SERVICE_NOT_SET_UP')) throw err;
      }
    }
    return englishText(key, values);
  };
}

/**
 * The back office's words for a request: its `ctx.t`, or bindery's English
 * texts without `i18n()`.
 * @example wordsOf(ctx)('backoffice.flash.none_selected') // 'No rows selected.'
 */
export function wordsOf(ctx: RequestContext): Translate {
  return withEnglishFallback((key, values) => ctx.t(key, values));
}
