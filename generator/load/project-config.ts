/**
 * The `bindery` section of the project's package.json (docs/generator.md
 * "Plugin list"; docs/plugins.md):
 *
 * ```json
 * "bindery": { "plugins": ["@bindery/mailprovider"] }   // an app: its plugin list, in load order
 * "bindery": { "plugin": true }                          // a plugin package: generate for a plugin
 * "bindery": { "databases": ["postgres", "mysql"] }       // the engines the migrations are written for (default ["postgres"])
 * ```
 */
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Diagnostics } from '../diagnostics.js';

/** What the generator reads from package.json. */
export interface ProjectConfig {
  /** The plugin list (package names, in load order), or `undefined` when package.json has none: then no plugin list file is generated. */
  readonly plugins: readonly string[] | undefined;
  /** The project is a plugin package: generate without the `Services` augmentation (generated files import `bindery/<entry>` either way). */
  readonly isPlugin: boolean;
  /**
   * Tables the listed plugins create (table → plugin package name), read from
   * each installed plugin's `generated/schema.snapshot.json`; a plugin without
   * one adds none.
   */
  readonly pluginTables: ReadonlyMap<string, string>;
  /**
   * The database engines the project runs on (`bindery.databases`; docs/generator.md
   * "Databases"): the migrations are written for each. Default `["postgres"]`.
   */
  readonly databases: readonly DatabaseName[];
}

/** An engine a project's migrations are written for: `postgres`, or `mysql` (MySQL and MariaDB). */
export type DatabaseName = 'postgres' | 'mysql';

/** The values `bindery.databases` takes, in the order the generator writes them. */
export const DATABASE_NAMES: readonly DatabaseName[] = ['postgres', 'mysql'];

/** The engines of a project without a `databases` setting. */
export const DEFAULT_DATABASES: readonly DatabaseName[] = ['postgres'];

/** npm package names: optional `@scope/`, then lower-case URL-safe characters. */
const PACKAGE_NAME = /^(?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;

/**
 * Read `<root>/package.json`'s `bindery` section; report bad plugin list entries as diagnostics of package.json.
 * A missing package.json is no configuration.
 */
export async function readProjectConfig(root: string, diagnostics: Diagnostics): Promise<ProjectConfig> {
  let text: string;
  try {
    text = await readFile(join(root, 'package.json'), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return { plugins: undefined, isPlugin: false, pluginTables: new Map(), databases: DEFAULT_DATABASES };
    throw error;
  }
  let json: { bindery?: { plugins?: unknown; plugin?: unknown; databases?: unknown } };
  try {
    json = JSON.parse(text) as typeof json;
  } catch (error) {
    diagnostics.add({ file: 'package.json', line: 1, column: 1 }, '', `package.json is not valid JSON: ${(error as Error).message}`);
    return { plugins: undefined, isPlugin: false, pluginTables: new Map(), databases: DEFAULT_DATABASES };
  }
  const section = json.bindery;
  const isPlugin = section?.plugin === true;
  const at = (needle: string) => position(text, needle);
  const databases = readDatabases(section?.databases, at, diagnostics);
  if (section?.plugins === undefined) return { plugins: undefined, isPlugin, pluginTables: new Map(), databases };
  if (!Array.isArray(section.plugins)) {
    diagnostics.add(at('"plugins"'), 'bindery.plugins', 'must be a list of npm package names, e.g. ["@bindery/mailprovider"]');
    return { plugins: undefined, isPlugin, pluginTables: new Map(), databases };
  }
  const seen = new Set<string>();
  section.plugins.forEach((entry: unknown, i: number) => {
    if (typeof entry !== 'string' || !PACKAGE_NAME.test(entry)) {
      diagnostics.add(at(JSON.stringify(entry)), `bindery.plugins[${i}]`, `${JSON.stringify(entry)} is not an npm package name`);
    } else if (seen.has(entry)) {
      diagnostics.add(at(JSON.stringify(entry)), `bindery.plugins[${i}]`, `"${entry}" is listed twice; list each plugin once`);
    }
    if (typeof entry === 'string') seen.add(entry);
  });
  const plugins = section.plugins.filter((p): p is string => typeof p === 'string');
  return {
    plugins,
    isPlugin,
    databases,
    pluginTables: await pluginTables(
      root,
      plugins.filter((p) => PACKAGE_NAME.test(p)),
    ),
  };
}

/**
 * The `databases` setting: a non-empty list of {@link DATABASE_NAMES}, each once, in that order.
 * A bad value is reported at it (the default is used then, and nothing is written).
 */
function readDatabases(
  value: unknown,
  at: (needle: string) => { file: string; line: number; column: number },
  diagnostics: Diagnostics,
): readonly DatabaseName[] {
  if (value === undefined) return DEFAULT_DATABASES;
  const expected = `a list of the database engines the migrations are written for: ${DATABASE_NAMES.map((d) => `"${d}"`).join(', ')} (e.g. ["postgres", "mysql"]; "mysql" is for MySQL and MariaDB)`;
  if (!Array.isArray(value) || value.length === 0) {
    diagnostics.add(at('"databases"'), 'bindery.databases', `must be ${expected}; got ${JSON.stringify(value)}`);
    return DEFAULT_DATABASES;
  }
  const seen = new Set<DatabaseName>();
  value.forEach((entry: unknown, i: number) => {
    if (typeof entry !== 'string' || !(DATABASE_NAMES as readonly string[]).includes(entry)) {
      const hint =
        entry === 'mariadb'
          ? ' (MariaDB is "mysql": the same migrations run on both)'
          : entry === 'postgresql'
            ? ' (write "postgres")'
            : '';
      diagnostics.add(
        at(JSON.stringify(entry)),
        `bindery.databases[${i}]`,
        `${JSON.stringify(entry)} is not a database engine bindery writes migrations for${hint}; bindery.databases must be ${expected}`,
      );
    } else if (seen.has(entry as DatabaseName)) {
      diagnostics.add(
        at(JSON.stringify(entry)),
        `bindery.databases[${i}]`,
        `"${entry}" is listed twice in bindery.databases; list each engine once`,
      );
    } else seen.add(entry as DatabaseName);
  });
  const names = DATABASE_NAMES.filter((d) => seen.has(d));
  return names.length > 0 ? names : DEFAULT_DATABASES;
}

/** Tables of each plugin's snapshot (`node_modules/<plugin>/generated/schema.snapshot.json`, looked up from `root` upwards). */
async function pluginTables(root: string, plugins: readonly string[]): Promise<Map<string, string>> {
  const tables = new Map<string, string>();
  for (const plugin of plugins) {
    for (let dir = resolve(root); ; dir = dirname(dir)) {
      const text = await readFile(join(dir, 'node_modules', plugin, 'generated', 'schema.snapshot.json'), 'utf8').catch(() => undefined);
      if (text !== undefined) {
        try {
          const snapshot = JSON.parse(text) as { tables?: Record<string, unknown> };
          for (const table of Object.keys(snapshot.tables ?? {})) if (!tables.has(table)) tables.set(table, plugin);
        } catch {
          // A broken snapshot is the plugin's problem; its tables stay unknown here.
        }
        break;
      }
      if (dirname(dir) === dir) break;
    }
  }
  return tables;
}

/** 1-based line and column of the first occurrence of `needle` in package.json (1:1 when absent). */
function position(text: string, needle: string): { file: string; line: number; column: number } {
  const index = text.indexOf(needle);
  if (index === -1) return { file: 'package.json', line: 1, column: 1 };
  const before = text.slice(0, index).split('\n');
  return { file: 'package.json', line: before.length, column: before[before.length - 1]!.length + 1 };
}
