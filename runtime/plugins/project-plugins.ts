/**
 * The plugins of a project, as the CLI sees them without booting the app
 * (`bindery plugins:list`, `plugins:env`, `add`, `remove`; docs/plugins.md).
 *
 * The list is `bindery.plugins` in the project's package.json, the source of
 * the generated plugin list file `generated/plugins.ts`; each package is
 * imported on its own from the project root, so one broken package does not
 * hide the others.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isPlugin, type Plugin } from './define-plugin.js';

/** Where the generated plugin list lives, relative to the project root. */
export const PLUGIN_LIST_FILE = 'generated/plugins.ts';

/** One entry of the project's plugin list. */
export interface ProjectPlugin {
  /** The npm package, e.g. `@bindery/mailprovider`. */
  readonly package: string;
  /** The installed version (its package.json), when found. */
  readonly version?: string;
  /** The package folder, when found. */
  readonly dir?: string;
  /** The manifest, when the package imported and default-exports one. */
  readonly plugin?: Plugin;
  /** Why there is no manifest. */
  readonly error?: string;
}

/** The project's package.json, parsed (`{}` when missing). */
export async function readProjectPackage(root: string): Promise<Record<string, any>> {
  try {
    return JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as Record<string, any>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
}

/** The package names of the plugin list (`bindery.plugins` of package.json), in order. */
export async function readPluginPackages(root: string): Promise<string[]> {
  const list = (await readProjectPackage(root)).bindery?.plugins;
  return Array.isArray(list) ? list.filter((p): p is string => typeof p === 'string') : [];
}

/** Find a package's folder and version from the project root (works for workspace links and packages without `exports` for package.json). */
export function locatePackage(root: string, pkg: string): { dir: string; entry: string } | undefined {
  const require = createRequire(join(root, 'package.json'));
  let entry: string;
  try {
    entry = require.resolve(pkg);
  } catch {
    return undefined;
  }
  // The package folder is the nearest folder above the entry whose package.json names the package.
  let dir = dirname(entry);
  for (;;) {
    try {
      const json = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string };
      if (json.name === pkg) return { dir, entry };
    } catch { /* keep looking */ }
    const up = dirname(dir);
    if (up === dir) return { dir: dirname(entry), entry };
    dir = up;
  }
}

/**
 * Import one plugin package from the project root.
 * @returns the manifest, or why there is none; never throws for a broken package.
 */
export async function importPluginPackage(root: string, pkg: string): Promise<ProjectPlugin> {
  const found = locatePackage(root, pkg);
  if (!found) return { package: pkg, error: `the package "${pkg}" is not installed (run "npm install", or "bindery remove ${pkg}")` };
  let version: string | undefined;
  try {
    version = (JSON.parse(await readFile(join(found.dir, 'package.json'), 'utf8')) as { version?: string }).version;
  } catch { /* no version */ }
  const base = { package: pkg, dir: found.dir, ...(version ? { version } : {}) };
  let mod: { default?: unknown };
  try {
    mod = (await import(pathToFileURL(found.entry).href)) as { default?: unknown };
  } catch (error) {
    return { ...base, error: `the package does not load: ${(error as Error).message}` };
  }
  if (!isPlugin(mod.default)) return { ...base, error: 'the package does not default-export definePlugin({ … }) from "bindery/plugins"' };
  return { ...base, plugin: mod.default };
}

/** Every entry of the project's plugin list, imported, in order. */
export async function loadProjectPlugins(root: string): Promise<ProjectPlugin[]> {
  const out: ProjectPlugin[] = [];
  for (const pkg of await readPluginPackages(root)) out.push(await importPluginPackage(root, pkg));
  return out;
}
