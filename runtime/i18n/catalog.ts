/**
 * Message catalogs (docs/i18n.md "Catalogs"): YAML files
 * `<dir>/<locale>/<namespace>.yaml`, each a tree of ICU MessageFormat texts,
 * flattened to dotted keys under the file's namespace
 * (`lang/de/validation.yaml` `required:` → `validation.required`).
 *
 * Catalogs are layered: the framework's (`runtime/i18n/lang`), then each
 * plugin's (`plugins/<name>/lang`, namespaces `<name>` or `<name>.*`), then
 * the app's (`lang/` at the project root), a later layer's text winning.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { BinderyError } from '../errors/bindery-error.js';

/** The folder of bindery's own catalogs. */
export const FRAMEWORK_LANG_DIR = fileURLToPath(new URL('./lang/', import.meta.url));

/** One folder of catalogs. */
export interface CatalogSource {
  /** `<dir>/<locale>/<namespace>.yaml`, absolute. */
  readonly dir: string;
  /** Who owns it, in messages: `bindery`, `app`, or a plugin's name. */
  readonly owner: string;
  /** When set, every namespace must be this name or start with `<name>.` (a plugin's). */
  readonly namespace?: string;
}

/** Texts by locale, then by dotted key. */
export type Catalogs = ReadonlyMap<string, ReadonlyMap<string, string>>;

/** Every text of one catalog file, flattened: `{ a: { b: 'x' } }` under `ns` → `ns.a.b`. */
function flatten(tree: unknown, prefix: string, out: Map<string, string>, file: string): void {
  if (typeof tree === 'string') {
    out.set(prefix, tree);
    return;
  }
  if (tree === null || typeof tree !== 'object' || Array.isArray(tree))
    throw new BinderyError('BINDERY_LANG_INVALID', `${file}: "${prefix}" must be a text or a map of texts.`);
  for (const [key, value] of Object.entries(tree)) flatten(value, `${prefix}.${key}`, out, file);
}

/**
 * Read the catalogs of `sources`, later sources winning on a key.
 * A missing folder counts as empty.
 * @throws {BinderyError} `BINDERY_LANG_INVALID` for a file that is not YAML of texts, or a plugin namespace not its own.
 * @example loadCatalogs([{ dir: FRAMEWORK_LANG_DIR, owner: 'bindery' }, { dir: '/app/lang', owner: 'app' }])
 */
export function loadCatalogs(sources: readonly CatalogSource[]): Catalogs {
  const catalogs = new Map<string, Map<string, string>>();
  for (const source of sources) {
    if (!existsSync(source.dir)) continue;
    for (const locale of readdirSync(source.dir).sort()) {
      const localeDir = join(source.dir, locale);
      if (!statSync(localeDir).isDirectory()) continue;
      const texts = catalogs.get(locale) ?? new Map<string, string>();
      catalogs.set(locale, texts);
      for (const name of readdirSync(localeDir).sort()) {
        const m = /^(.+)\.ya?ml$/.exec(name);
        if (m === null) continue;
        const namespace = m[1]!;
        const file = join(localeDir, name);
        if (source.namespace !== undefined && namespace !== source.namespace && !namespace.startsWith(`${source.namespace}.`))
          throw new BinderyError(
            'BINDERY_LANG_INVALID',
            `${file}: ${source.owner} may only declare the namespace "${source.namespace}" (or "${source.namespace}.…"); rename the file to ${source.namespace}.yaml.`,
          );
        let tree: unknown;
        try {
          tree = parse(readFileSync(file, 'utf8'));
        } catch (cause) {
          throw new BinderyError('BINDERY_LANG_INVALID', `${file}: not valid YAML: ${(cause as Error).message}`, { cause });
        }
        if (tree === null || tree === undefined) continue;
        flatten(tree, namespace, texts, file);
      }
    }
  }
  return catalogs;
}

/** The catalog sources of a project: bindery's, then the plugins' (`plugins/<name>/lang`), then the app's `lang/`. */
export function projectCatalogSources(
  root: string,
  plugins: readonly { readonly name: string; readonly dir: string }[] = [],
): CatalogSource[] {
  return [
    { dir: FRAMEWORK_LANG_DIR, owner: 'bindery' },
    ...plugins.map((p) => ({ dir: join(p.dir, 'lang'), owner: `plugin ${p.name}`, namespace: p.name })),
    { dir: join(root, 'lang'), owner: 'app' },
  ];
}
