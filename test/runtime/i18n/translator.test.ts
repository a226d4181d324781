/**
 * The translator (runtime/i18n/translator.ts; docs/i18n.md): ICU messages,
 * the fallback locale, the key itself, one warning per missing key and
 * locale; negotiation and the catalogs' English texts.
 */
import { describe, expect, it } from 'vitest';
import { FRAMEWORK_LANG_DIR, I18n, loadCatalogs, negotiateLocale, resolveLocale } from '../../../runtime/i18n/index.js';

function catalogs(texts: Record<string, Record<string, string>>) {
  return new Map(Object.entries(texts).map(([locale, keys]) => [locale, new Map(Object.entries(keys))]));
}

function withLog() {
  const warnings: { fields: Record<string, unknown>; message: string }[] = [];
  const i18n = new I18n({
    catalogs: catalogs({
      en: { 'app.hello': 'Hello {name}!', 'app.items': '{count, plural, one {# item} other {# items}}', 'app.only_en': 'Only English' },
      de: { 'app.hello': 'Hallo {name}!', 'app.items': '{count, plural, one {# Artikel} other {# Artikel}}' },
    }),
    locales: ['en', 'de'],
    defaultLocale: 'en',
    fallbackLocale: 'en',
    log: { warn: (fields, message) => warnings.push({ fields, message }) },
  });
  return { i18n, warnings };
}

describe('I18n | translating', () => {
  it('formats ICU messages in the locale (placeholders, plurals, grouping)', () => {
    const { i18n } = withLog();
    expect(i18n.t('de', 'app.hello', { name: 'Ada' })).toBe('Hallo Ada!');
    expect(i18n.t('en', 'app.items', { count: 1 })).toBe('1 item');
    expect(i18n.t('de', 'app.items', { count: 1200 })).toBe('1.200 Artikel');
  });

  it('a key missing in de falls back to en and is warned about once per key and locale', () => {
    const { i18n, warnings } = withLog();
    expect(i18n.t('de', 'app.only_en')).toBe('Only English');
    expect(i18n.t('de', 'app.only_en')).toBe('Only English');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.fields).toEqual({ code: 'BINDERY_LANG_KEY_MISSING', key: 'app.only_en', locale: 'de' });
    expect(warnings[0]!.message).toContain('"app.only_en" is missing in locale "de"');
  });

  it('a key no catalog has shows the key itself, warned once for the locale and once for the fallback', () => {
    const { i18n, warnings } = withLog();
    expect(i18n.t('de', 'app.nowhere')).toBe('app.nowhere');
    expect(i18n.t('de', 'app.nowhere')).toBe('app.nowhere');
    expect(warnings.map((w) => w.fields['locale'])).toEqual(['de', 'en']);
  });

  it('lists the keys a locale lacks', () => {
    expect(withLog().i18n.missingKeys('de')).toEqual(['app.only_en']);
  });

  it('dates and numbers through Intl', () => {
    const { i18n } = withLog();
    const date = new Date(Date.UTC(2026, 11, 3, 12));
    expect(i18n.formatDate('de', date, { dateStyle: 'long', timeZone: 'UTC' })).toBe('3. Dezember 2026');
    expect(i18n.formatNumber('de', 1234.5)).toBe('1.234,5');
  });
});

describe('I18n | the locale of a request', () => {
  it('user, then session, then Accept-Language, then APP_LOCALE; negotiated says whether the header was read', () => {
    const { i18n } = withLog();
    expect(resolveLocale(i18n, { user: 'de', acceptLanguage: 'en' })).toEqual({ locale: 'de', negotiated: false });
    expect(resolveLocale(i18n, { user: 'fr', session: 'de' })).toEqual({ locale: 'de', negotiated: false });
    expect(resolveLocale(i18n, { acceptLanguage: 'fr, de;q=0.5' })).toEqual({ locale: 'de', negotiated: true });
    expect(resolveLocale(i18n, { acceptLanguage: 'fr' })).toEqual({ locale: 'en', negotiated: true });
    expect(negotiateLocale('de-CH', ['en', 'de'])).toBe('de');
    expect(negotiateLocale('de;q=0', ['en', 'de'])).toBeUndefined();
  });
});

describe('the framework catalogs', () => {
  it('de has every key en has', () => {
    const all = loadCatalogs([{ dir: FRAMEWORK_LANG_DIR, owner: 'bindery' }]);
    const en = [...all.get('en')!.keys()].sort();
    expect([...all.get('de')!.keys()].sort()).toEqual(en);
    expect(en).toContain('validation.required');
  });
});

describe('I18n | the locale of a recipient', () => {
  it('a stored locale the app has, its base language, else APP_LOCALE', () => {
    const { i18n } = withLog();
    expect(i18n.localeFor('de')).toBe('de');
    expect(i18n.localeFor('de-AT')).toBe('de');
    expect(i18n.localeFor('fr')).toBe('en');
    expect(i18n.localeFor(null)).toBe('en');
  });
});
