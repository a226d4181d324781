/**
 * The i18n settings (docs/i18n.md "Settings"): a bad tag, a default outside
 * APP_LOCALES, and a locale without a catalog stop the boot naming the setting.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SettingsError } from '../../../runtime/config/index.js';
import { loadSettings } from '../../../runtime/config/load-settings.js';
import { i18n, i18nSettings, type I18n } from '../../../runtime/i18n/index.js';
import type { SetupContext } from '../../../runtime/app/index.js';

const root = fileURLToPath(new URL('./fixtures/lang-app/', import.meta.url));

/** Run the step's setup with `env`, as the boot does; the services it set. */
function setUp(env: Record<string, string>): Record<string, unknown> {
  const services: Record<string, unknown> = {};
  const ctx = {
    app: { name: 'lang_fixture', root },
    services,
    log: { warn: () => {} },
    settingsOf: (definition: typeof i18nSettings) => loadSettings(definition, env),
  } as unknown as SetupContext;
  void i18n().setup!(ctx);
  return services;
}

describe('i18n settings', () => {
  it('defaults: APP_LOCALE en first, then every locale the catalogs have', () => {
    const service = setUp({}).i18n as I18n;
    expect(service.locales).toEqual(['en', 'de']);
    expect(service.defaultLocale).toBe('en');
    expect(service.fallbackLocale).toBe('en');
  });

  it('refuses a value that is not a language tag, naming the setting', () => {
    expect(() => loadSettings(i18nSettings, { APP_LOCALE: 'not a locale!' })).toThrow(SettingsError);
    expect(() => loadSettings(i18nSettings, { APP_LOCALE: 'not a locale!' })).toThrow(
      /APP_LOCALE="not a locale!": expected a BCP 47 language tag/,
    );
  });

  it('refuses APP_LOCALE outside APP_LOCALES', () => {
    expect(() => loadSettings(i18nSettings, { APP_LOCALES: 'de', APP_LOCALE: 'en', APP_FALLBACK_LOCALE: 'de' })).toThrow(
      /APP_LOCALE must be one of APP_LOCALES/,
    );
  });

  it('stops the boot when a locale has no catalog, naming the setting and the catalogs there are', () => {
    expect(() => setUp({ APP_LOCALES: 'en,fr' })).toThrow(SettingsError);
    expect(() => setUp({ APP_LOCALES: 'en,fr' })).toThrow(/APP_LOCALES: no catalog has the locale "fr" \(the catalogs have de, en\)/);
    expect(() => setUp({ APP_LOCALE: 'fr' })).toThrow(/APP_LOCALE: no catalog has the locale "fr"/);
  });

  it('canonicalizes tags: DE is de', () => {
    expect(loadSettings(i18nSettings, { APP_LOCALES: 'EN, DE', APP_LOCALE: 'DE' })).toMatchObject({
      APP_LOCALES: ['en', 'de'],
      APP_LOCALE: 'de',
    });
  });
});
