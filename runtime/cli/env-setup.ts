/**
 * Creating `.env` when it is missing (`bindery start`, `bindery
 * key:generate`; docs/cli.md): a copy of `.env.example` — or every core
 * setting documented — with a fresh value for every empty setting whose
 * declaration can make one (`SettingSpec.generate`: `APP_KEY`, a plugin's
 * webhook password…), so a fresh checkout boots with `npm start`.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { coreSettings } from '../config/core-settings.js';
import type { SettingsDefinition } from '../config/define-settings.js';
import type { SettingSpecs } from '../config/setting.js';
import { envFilePath, setEnvFileValues } from '../config/env-file.js';
import { renderEnvFile } from '../config/env-example.js';
import { loadProjectPlugins } from '../plugins/project-plugins.js';

/** The title of an env file rendered from the settings declarations. */
export const ENV_FILE_TITLE = 'bindery settings (docs/settings.md). Real environment variables win over this file.';

/** What {@link ensureEnvFile} did. */
export interface EnvFileCreated {
  /** Where the content came from. */
  readonly from: '.env.example' | 'defaults';
  /** The settings given fresh values, in order (`APP_KEY` first). */
  readonly generated: readonly string[];
}

/** The values an example leaves empty (`NAME=` with nothing after it), by name. */
function emptyNames(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/^\s*([A-Z][A-Z0-9_]*)=\s*$/gm)) out.add(m[1]!);
  return out;
}

/**
 * The settings declarations of a project known without booting it: the core
 * settings and those of the plugins in the plugin list (broken plugins are
 * skipped; the boot reports them).
 */
export async function projectSettings(root: string): Promise<SettingsDefinition<SettingSpecs>[]> {
  const plugins = await loadProjectPlugins(root).catch(() => []);
  return [coreSettings, ...plugins.flatMap((p) => (p.plugin?.settings ? [p.plugin.settings as SettingsDefinition<SettingSpecs>] : []))];
}

/**
 * Create `<root>/.env` unless it exists. Written with mode 0600 (it holds secrets).
 * @param options.values values to write as given (e.g. the `APP_KEY` that `key:generate` made); they win over generated ones.
 * @param options.definitions the settings whose `generate` may fill empty values (default: {@link projectSettings}).
 * @returns `undefined` when `.env` existed; otherwise what was done.
 */
export async function ensureEnvFile(
  root: string,
  options: { readonly values?: Readonly<Record<string, string>>; readonly definitions?: readonly SettingsDefinition<SettingSpecs>[] } = {},
): Promise<EnvFileCreated | undefined> {
  const path = envFilePath(root);
  try {
    await readFile(path);
    return undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const example = await readFile(join(root, '.env.example'), 'utf8').catch(() => undefined);
  const definitions = options.definitions ?? (await projectSettings(root));
  // Fill what the example leaves empty (or, without an example, what has no value at all).
  const empty = example === undefined ? undefined : emptyNames(example);
  const values: Record<string, string> = {};
  const generated: string[] = [];
  for (const definition of definitions) {
    for (const [name, spec] of Object.entries(definition.specs as SettingSpecs)) {
      if (spec.generate === undefined || options.values?.[name] !== undefined) continue;
      if (empty !== undefined && !empty.has(name)) continue;
      values[name] = spec.generate();
      generated.push(name);
    }
  }
  Object.assign(values, options.values);
  const text = example !== undefined ? setEnvFileValues(example, values) : renderEnvFile(coreSettings, { title: ENV_FILE_TITLE, values });
  await writeFile(path, text, { mode: 0o600, flag: 'wx' });
  return { from: example !== undefined ? '.env.example' : 'defaults', generated: [...Object.keys(options.values ?? {}), ...generated] };
}
