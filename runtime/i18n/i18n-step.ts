/**
 * The `i18n()` setup step (docs/boot.md "Setup steps"; docs/i18n.md):
 * settings `APP_LOCALE`, `APP_FALLBACK_LOCALE`, `APP_LOCALES`, the command
 * `lang:missing`, and `ctx.services.i18n` — which makes `ctx.locale`,
 * `ctx.t`, `it.t` and the translated framework messages work.
 */
import type { SetupStep } from '../app/setup-step.js';
import { SettingsError } from '../config/load-settings.js';
import { type CatalogSource, loadCatalogs, projectCatalogSources } from './catalog.js';
import { LangMissingCommand } from './commands/lang-missing-command.js';
import { i18nSettings } from './settings.js';
import { I18n } from './translator.js';

declare module '../http/context.js' {
  interface Services {
    /** The app's translations; present once `i18n()` is set up (docs/i18n.md). */
    readonly i18n?: I18n;
  }
}

/** A plugin whose `lang/` folder holds its catalogs (a plugin manifest fits). */
export interface CatalogPlugin {
  readonly name: string;
  /** The plugin package's folder, absolute; its catalogs are `<root>/lang/<locale>/<name>.yaml`. */
  readonly root?: string;
}

/** Options of {@link i18n}. */
export interface I18nStepOptions {
  /** The app's plugins (`plugins` of generated/plugins.ts), whose namespaces join the catalogs. */
  readonly plugins?: readonly CatalogPlugin[];
}

/** The `i18n()` step, which also tells `lang:missing` where the catalogs are. */
export interface I18nStep extends SetupStep {
  /** The catalog folders of the app rooted at `root`: bindery's, the plugins', the app's `lang/`. */
  catalogSources(root: string): CatalogSource[];
}

/**
 * Translated messages for an app (docs/i18n.md).
 *
 * Reads the catalogs at boot (bindery's `runtime/i18n/lang`, each plugin's
 * `lang/`, the app's `lang/` at the project root, later ones winning) and
 * checks the settings against them.
 *
 * @param options.plugins the plugin manifests, for their catalogs.
 * @throws {SettingsError} at boot when APP_LOCALE, APP_FALLBACK_LOCALE or a locale of APP_LOCALES has no catalog.
 * @throws {BinderyError} `BINDERY_LANG_INVALID` at boot for a catalog that is not YAML of texts.
 * @example setup: [session(), auth(), i18n({ plugins: pluginList }), mail(), links()]
 */
export function i18n(options: I18nStepOptions = {}): I18nStep {
  const catalogSources = (root: string): CatalogSource[] =>
    projectCatalogSources(
      root,
      (options.plugins ?? []).flatMap((p) => (p.root === undefined ? [] : [{ name: p.name, dir: p.root }])),
    );
  return {
    name: 'i18n',
    settings: i18nSettings,
    commands: [LangMissingCommand],
    catalogSources,
    setup(ctx) {
      const settings = ctx.settingsOf(i18nSettings);
      const catalogs = loadCatalogs(catalogSources(ctx.app.root));
      const known = [...catalogs.keys()].sort();
      const locales = settings.APP_LOCALES ?? [settings.APP_LOCALE, ...known.filter((l) => l !== settings.APP_LOCALE)];
      const problems = [
        ...locales.filter((l) => !catalogs.has(l)).map((l) => ({ name: 'APP_LOCALES', locale: l })),
        ...(catalogs.has(settings.APP_LOCALE) ? [] : [{ name: 'APP_LOCALE', locale: settings.APP_LOCALE }]),
        ...(catalogs.has(settings.APP_FALLBACK_LOCALE) ? [] : [{ name: 'APP_FALLBACK_LOCALE', locale: settings.APP_FALLBACK_LOCALE }]),
      ];
      if (problems.length > 0)
        throw new SettingsError(
          problems.map((p) => ({
            names: [p.name],
            message: `${p.name}: no catalog has the locale "${p.locale}" (the catalogs have ${known.join(', ') || 'none'}); add lang/${p.locale}/*.yaml or choose one of them`,
          })),
        );
      ctx.services.i18n = new I18n({
        catalogs,
        locales,
        defaultLocale: settings.APP_LOCALE,
        fallbackLocale: settings.APP_FALLBACK_LOCALE,
        log: ctx.log,
      });
    },
  };
}
