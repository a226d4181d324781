/**
 * Translating and formatting for one app (docs/i18n.md): ICU MessageFormat
 * texts of the catalogs, formatted by `intl-messageformat`; dates and
 * numbers through `Intl`.
 *
 * A key missing in the asked locale falls back to the fallback locale, then
 * to the key itself; each missing key and locale is logged once as a warning.
 */
import { IntlMessageFormat } from 'intl-messageformat';
import type { Catalogs } from './catalog.js';

/** Values of a message's `{placeholders}`. */
export type MessageValues = Readonly<Record<string, string | number | boolean | Date | null | undefined>>;

/** Where a missing key is reported (a pino logger fits). */
export interface MissingKeyLog {
  warn(fields: Record<string, unknown>, message: string): void;
}

/** What an {@link I18n} is made of. */
export interface I18nOptions {
  readonly catalogs: Catalogs;
  /** The locales the app answers in (APP_LOCALES), in order of preference. */
  readonly locales: readonly string[];
  /** APP_LOCALE: the locale when nothing else decides. */
  readonly defaultLocale: string;
  /** APP_FALLBACK_LOCALE: where missing keys are looked up. */
  readonly fallbackLocale: string;
  readonly log?: MissingKeyLog;
}

/** A translator bound to one locale (`ctx.t`, `it.t`). */
export type Translate = (key: string, values?: MessageValues) => string;

/**
 * The translations of an app, made once at boot by the `i18n()` step
 * (`ctx.services.i18n`).
 * @example const i18n = new I18n({ catalogs, locales: ['en', 'de'], defaultLocale: 'en', fallbackLocale: 'en' }); i18n.t('de', 'validation.required', { attribute: 'Titel' })
 */
export class I18n {
  readonly locales: readonly string[];
  readonly defaultLocale: string;
  readonly fallbackLocale: string;
  readonly #catalogs: Catalogs;
  readonly #log: MissingKeyLog | undefined;
  readonly #formats = new Map<string, IntlMessageFormat>();
  readonly #warned = new Set<string>();

  constructor(options: I18nOptions) {
    this.#catalogs = options.catalogs;
    this.locales = options.locales;
    this.defaultLocale = options.defaultLocale;
    this.fallbackLocale = options.fallbackLocale;
    this.#log = options.log;
  }

  /** Whether `locale` (or the fallback locale) has a text for `key`. */
  has(key: string, locale: string = this.fallbackLocale): boolean {
    return this.#catalogs.get(locale)?.has(key) === true || this.#catalogs.get(this.fallbackLocale)?.has(key) === true;
  }

  /** The raw text of `key` in exactly `locale`, or `undefined`. */
  text(locale: string, key: string): string | undefined {
    return this.#catalogs.get(locale)?.get(key);
  }

  /**
   * The message `key` in `locale` with `values` filled in. Falls back to the
   * fallback locale, then to the key; a missing key is warned about once
   * per key and locale. Never throws (a text that does not format is
   * returned as written, and warned about).
   */
  t(locale: string, key: string, values?: MessageValues): string {
    let at = locale;
    let text = this.#catalogs.get(locale)?.get(key);
    if (text === undefined) {
      this.#warnOnce(key, locale, `message "${key}" is missing in locale "${locale}"; using the fallback locale "${this.fallbackLocale}"`);
      at = this.fallbackLocale;
      text = this.#catalogs.get(at)?.get(key);
      if (text === undefined) {
        if (at !== locale) this.#warnOnce(key, at, `message "${key}" is missing in the fallback locale "${at}"; showing the key`);
        return key;
      }
    }
    const id = `${at}\0${key}`;
    let format = this.#formats.get(id);
    try {
      if (format === undefined) {
        format = new IntlMessageFormat(text, at, undefined, { ignoreTag: true });
        this.#formats.set(id, format);
      }
      const out = format.format(values as Record<string, string>);
      return typeof out === 'string' ? out : String(out);
    } catch (err) {
      this.#warnOnce(key, `${at}:format`, `message "${key}" of locale "${at}" does not format: ${(err as Error).message}`);
      return text;
    }
  }

  /** A {@link Translate} bound to `locale`. */
  translator(locale: string): Translate {
    return (key, values) => this.t(locale, key, values);
  }

  /** `date` (a Date, or milliseconds/ISO text) in `locale` through `Intl.DateTimeFormat` (default: medium date). */
  formatDate(locale: string, date: Date | number | string, options: Intl.DateTimeFormatOptions = { dateStyle: 'medium' }): string {
    return new Intl.DateTimeFormat(locale, options).format(date instanceof Date ? date : new Date(date));
  }

  /** `value` in `locale` through `Intl.NumberFormat`. */
  formatNumber(locale: string, value: number, options?: Intl.NumberFormatOptions): string {
    return new Intl.NumberFormat(locale, options).format(value);
  }

  /** The locale to use for a stored preference (a user's `locale` column): itself when the app has it, else `undefined`. */
  supported(locale: string | null | undefined): string | undefined {
    if (locale === null || locale === undefined || locale === '') return undefined;
    if (this.locales.includes(locale)) return locale;
    const base = locale.split('-')[0]!;
    return this.locales.includes(base) ? base : undefined;
  }

  /**
   * The locale of a recipient (docs/i18n.md "Mails and jobs"): a stored
   * preference (a user's `locale` column) when the app has it, else `APP_LOCALE`.
   * Mails and jobs use it instead of any request's locale.
   * @example i18n.t(i18n.localeFor(user.locale), 'app.digest.subject')
   */
  localeFor(stored: unknown): string {
    return this.supported(typeof stored === 'string' ? stored : null) ?? this.defaultLocale;
  }

  /** Every key the fallback locale has and `locale` lacks, sorted. */
  missingKeys(locale: string): string[] {
    const have = this.#catalogs.get(locale) ?? new Map<string, string>();
    const want = this.#catalogs.get(this.fallbackLocale) ?? new Map<string, string>();
    return [...want.keys()].filter((k) => !have.has(k)).sort();
  }

  #warnOnce(key: string, locale: string, message: string): void {
    const id = `${locale}\0${key}`;
    if (this.#warned.has(id)) return;
    this.#warned.add(id);
    this.#log?.warn({ code: 'BINDERY_LANG_KEY_MISSING', key, locale }, message);
  }
}
