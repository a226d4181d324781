/**
 * The message keys of a project's catalogs (docs/i18n.md "Checks"), for the
 * check of `messages:` keys: bindery's, the listed plugins' and the app's `lang/`.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { loadCatalogs, projectCatalogSources } from '../../runtime/i18n/catalog.js';

/** The folder of an installed plugin package (`node_modules/<name>` in `root` or above), or undefined. */
function pluginDir(root: string, name: string): string | undefined {
  for (let dir = resolve(root); ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * Every key of every locale's catalogs.
 * @returns the keys, or a message when a catalog cannot be read.
 */
export function projectMessageKeys(root: string, plugins: readonly string[] = []): { keys: Set<string> } | { error: string } {
  try {
    const dirs = plugins.flatMap((p) => {
      const dir = pluginDir(root, p);
      return dir === undefined ? [] : [{ name: p, dir }];
    });
    // Plugins' namespaces are checked when the app boots; here every key counts.
    const sources = projectCatalogSources(root, dirs).map(({ namespace: _ns, ...s }) => s);
    const keys = new Set<string>();
    for (const texts of loadCatalogs(sources).values()) for (const key of texts.keys()) keys.add(key);
    return { keys };
  } catch (error) {
    return { error: (error as Error).message };
  }
}
