/**
 * Translated messages (docs/i18n.md): the `i18n()` step, the translator,
 * catalogs and locale negotiation.
 */
export { i18n, type I18nStep, type I18nStepOptions, type CatalogPlugin } from './i18n-step.js';
export { I18n, type I18nOptions, type MessageValues, type Translate, type MissingKeyLog } from './translator.js';
export { loadCatalogs, projectCatalogSources, FRAMEWORK_LANG_DIR, type CatalogSource, type Catalogs } from './catalog.js';
export { negotiateLocale } from './negotiate.js';
export { resolveLocale, type ResolvedLocale, type LocaleSources } from './request-locale.js';
export { i18nSettings, canonicalLocale, type I18nSettings } from './settings.js';
export { LangMissingCommand } from './commands/lang-missing-command.js';
