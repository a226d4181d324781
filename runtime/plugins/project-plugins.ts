/**
 * The plugins of a project, as the CLI sees them without booting the app
 * (`bindery plugins:list`, `plugins:env`, `add`, `remove`; docs/plugins.md).
 *
 * The list is `bindery.plugins` in the project's package.json, the source of
 * the generated plugin list file `generated/plugins.ts`; each package is
 * imported on its own from the project root, so one broken package does not
 * hide the others.
 */
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { exports as resolveExports } from 'resolve.exports';
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

/** The fields of a project's package.json that plugin commands read (the rest is kept as is). */
export interface ProjectPackage {
  readonly name?: string;
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly devDependencies?: Readonly<Record<string, string>>;
  readonly bindery?: { readonly plugins?: unknown };
  readonly [field: string]: unknown;
}

/** The project's package.json, parsed (`{}` when missing). */
export async function readProjectPackage(root: string): Promise<ProjectPackage> {
  try {
    return JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as ProjectPackage;
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

/**
 * The conditions a plugin package's `exports` are resolved with: Node's own
 * (`import`, `node`, `default`), plus `bindery-source` when this runtime runs
 * from its TypeScript sources (the bindery repository; docs/package.md), so a
 * workspace plugin is loaded from its sources there and from its build
 * everywhere else.
 */
const EXTRA_CONDITIONS = import.meta.url.endsWith('.ts') ? ['bindery-source'] : [];

/** The folder of `pkg` under the nearest `node_modules` from `root` upwards (workspace links included). */
function findPackageDir(root: string, pkg: string): string | undefined {
  for (let dir = root; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', pkg);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * Find a package's folder and entry file from the project root, the way
 * Node's ESM loader would import it (its `exports` with the conditions
 * above, else `main`, else `index.js`).
 * @returns the folder and the entry file's path (the first that exists, else
 *   the first one named), or undefined when the package is not installed.
 */
export function locatePackage(root: string, pkg: string): { dir: string; entry: string } | undefined {
  const dir = findPackageDir(root, pkg);
  if (dir === undefined) return undefined;
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  let targets: string[] = [];
  try {
    targets = json.exports === undefined ? [] : (resolveExports(json, '.', { conditions: EXTRA_CONDITIONS }) ?? []);
  } catch {
    /* "." not exported: fall back to main */
  }
  if (targets.length === 0) targets = [typeof json.main === 'string' ? json.main : 'index.js'];
  for (const target of targets) {
    const entry = join(dir, target);
    if (existsSync(entry)) return { dir, entry };
  }
  // Not built yet (or a broken package): importing it says which file is missing.
  return { dir, entry: join(dir, targets[0] ?? 'index.js') };
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
  } catch {
    /* no version */
  }
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
