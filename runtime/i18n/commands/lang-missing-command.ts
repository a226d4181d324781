/**
 * `bindery lang:missing [locale] [--fallback <locale>]` (docs/i18n.md "Checks"):
 * the keys a locale's catalogs lack that the fallback locale's have.
 */
import { Command, Option, UsageError } from 'clipanion';
import { BinderyCommand } from '../../app/base-command.js';
import { DEFAULT_APP_MODULE, loadApp } from '../../app/load-app.js';
import { BinderyError } from '../../errors/bindery-error.js';
import { loadCatalogs, type CatalogSource } from '../catalog.js';
import { canonicalLocale } from '../settings.js';

/** List the message keys a locale lacks; exit 1 when any. */
export class LangMissingCommand extends BinderyCommand {
  static override paths = [['lang:missing']];
  static override usage = Command.Usage({
    category: 'I18n',
    description: 'List the message keys a locale lacks compared with the fallback locale (exit 1 when any).',
    details: `
      Reads the catalogs the app's \`i18n()\` step reads (bindery's, the plugins', the app's \`lang/\`) without booting the app. Without a locale, every locale of the catalogs but the fallback one is checked. The fallback locale is \`--fallback\`, else APP_FALLBACK_LOCALE, else \`en\`.
    `,
    examples: [
      ['The keys German lacks', '$0 lang:missing de'],
      ['Every locale', '$0 lang:missing'],
    ],
  });

  locale = Option.String({ required: false, name: 'locale' });
  fallback = Option.String('--fallback', { description: 'The locale to compare with (default APP_FALLBACK_LOCALE, else en).' });
  app = Option.String('--app', DEFAULT_APP_MODULE, { description: 'The app module (default app/main.ts).' });

  protected async run(): Promise<number> {
    const app = this.context.app ?? (await loadApp(this.root, this.app));
    const step = app.setup.find((s) => s.name === 'i18n') as { catalogSources?: (root: string) => CatalogSource[] } | undefined;
    if (step?.catalogSources === undefined)
      throw new BinderyError(
        'BINDERY_SERVICE_NOT_SET_UP',
        'lang:missing needs i18n() set up: add i18n() to the setup list of app/main.ts (docs/i18n.md).',
      );
    const catalogs = loadCatalogs(step.catalogSources(app.root));
    const env = await this.env();
    const fallback = canonicalLocale(this.fallback ?? env.APP_FALLBACK_LOCALE?.trim() ?? 'en');
    if (fallback === undefined || !catalogs.has(fallback))
      throw new UsageError(`the fallback locale ${JSON.stringify(this.fallback ?? env.APP_FALLBACK_LOCALE)} has no catalog.`);
    const locales =
      this.locale === undefined ? [...catalogs.keys()].filter((l) => l !== fallback).sort() : [canonicalLocale(this.locale) ?? this.locale];
    const want = catalogs.get(fallback)!;
    let missing = 0;
    for (const locale of locales) {
      const have = catalogs.get(locale) ?? new Map<string, string>();
      const keys = [...want.keys()].filter((k) => !have.has(k)).sort();
      missing += keys.length;
      if (keys.length === 0) {
        this.out(`${locale}: complete (${want.size} keys of ${fallback})\n`);
        continue;
      }
      this.out(`${locale}: ${keys.length} ${keys.length === 1 ? 'key' : 'keys'} missing (compared with ${fallback}):\n`);
      for (const key of keys) this.out(`  ${key}\n`);
    }
    return missing === 0 ? 0 : 1;
  }
}
