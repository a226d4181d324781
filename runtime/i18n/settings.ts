/**
 * The i18n settings (docs/i18n.md "Settings"; docs/settings.md). Loaded with
 * the core settings at boot, so one error lists every bad one; that each
 * locale has a catalog is checked by the `i18n()` step once the catalogs are read.
 */
import { defineSettings } from '../config/define-settings.js';
import type { CrossSettingProblem, SettingParser, SettingsValues } from '../config/setting.js';

/** A BCP 47 language tag in its canonical form (`de`, `pt-BR`), or undefined. */
export function canonicalLocale(text: string): string | undefined {
  try {
    const [canonical] = Intl.getCanonicalLocales(text);
    return canonical;
  } catch {
    return undefined;
  }
}

function localeSetting(): SettingParser<string> {
  return {
    allowed: 'a BCP 47 language tag, e.g. en, de or pt-BR',
    parse: (text) => {
      const locale = canonicalLocale(text);
      return locale === undefined ? { ok: false } : { ok: true, value: locale };
    },
  };
}

function localeListSetting(): SettingParser<readonly string[]> {
  return {
    allowed: 'a comma-separated list of BCP 47 language tags, e.g. en,de',
    parse: (text) => {
      const locales = text.split(',').map((part) => canonicalLocale(part.trim()));
      if (locales.length === 0 || locales.some((l) => l === undefined)) return { ok: false };
      return { ok: true, value: [...new Set(locales as string[])] };
    },
  };
}

const specs = {
  APP_LOCALE: {
    description: 'The locale of a request that names none the app has (no user preference, no matching Accept-Language).',
    parser: localeSetting(),
    default: 'en',
  },
  APP_FALLBACK_LOCALE: {
    description: 'Where a message missing in the chosen locale is looked up (then the key itself is shown).',
    parser: localeSetting(),
    default: 'en',
  },
  APP_LOCALES: {
    description: 'The locales the app answers in, comma-separated; unset: every locale its catalogs have.',
    parser: localeListSetting(),
    example: 'en,de',
  },
} as const;

/** The loaded i18n settings. */
export type I18nSettings = SettingsValues<typeof specs>;

/** The settings declaration of the `i18n()` step. */
export const i18nSettings = defineSettings(specs, { check: (values) => checkI18nSettings(values) });

function checkI18nSettings(values: I18nSettings): CrossSettingProblem[] {
  const locales = values.APP_LOCALES;
  if (locales === undefined) return [];
  const problems: CrossSettingProblem[] = [];
  if (!locales.includes(values.APP_LOCALE))
    problems.push({
      names: ['APP_LOCALE', 'APP_LOCALES'],
      message: 'APP_LOCALE must be one of APP_LOCALES; add it to the list or choose one of them',
    });
  if (!locales.includes(values.APP_FALLBACK_LOCALE))
    problems.push({
      names: ['APP_FALLBACK_LOCALE', 'APP_LOCALES'],
      message: 'APP_FALLBACK_LOCALE must be one of APP_LOCALES; add it to the list or choose one of them',
    });
  return problems;
}
