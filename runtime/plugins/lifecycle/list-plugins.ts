/**
 * What `bindery plugins:list` and `plugins:env` print (docs/plugins.md "Commands").
 */
import type { App } from '../../app/define-app.js';
import { loadSettings, SettingsError } from '../../config/load-settings.js';
import type { Env } from '../../config/setting.js';
import { loadApp } from '../../app/load-app.js';
import { formatTable } from '../../support/format-table.js';
import { checkPluginManifest, checkPluginName, checkPluginVersion, neededSteps } from '../check-plugin.js';
import { addsSummary, pluginEnvText, routesSummary } from '../describe-plugin.js';
import { PluginNotFoundError } from '../errors.js';
import { FRAMEWORK_VERSION } from '../framework-version.js';
import { isPluginStep, PLUGIN_STEP } from '../plugin-step.js';
import { loadProjectPlugins, type ProjectPlugin } from '../project-plugins.js';

/** Why a plugin would not load, or `undefined` when it would. */
function problemOf(entry: ProjectPlugin, seen: Set<string>, env: Env, app: App | undefined): string | undefined {
  const plugin = entry.plugin;
  if (!plugin) return entry.error;
  try {
    checkPluginName(plugin, seen, entry.package);
    checkPluginVersion(plugin);
    checkPluginManifest(plugin);
  } catch (error) {
    return (error as Error).message;
  }
  if (plugin.settings) {
    try {
      loadSettings(plugin.settings, env);
    } catch (error) {
      if (error instanceof SettingsError) return error.problems.map((p) => p.message).join('; ');
      return (error as Error).message;
    }
  }
  if (app) {
    const at = app.setup.findIndex((s) => isPluginStep(s) && s.name === `plugin:${plugin.name}`);
    if (at === -1) return 'it is not in the setup list of app/main.ts (add ...plugins(pluginList) from generated/plugins.ts)';
    for (const need of neededSteps(plugin)) {
      const i = app.setup.findIndex((s) => s.name === need.name);
      if (i === -1 || i > at) return `it needs ${need.call} set up before it in app/main.ts`;
    }
  }
  return undefined;
}

/**
 * The text of `bindery plugins:list`: a table (PLUGIN, REQUIRES, ROUTES, ADDS), then why each plugin marked "(not loaded)" would not load.
 * @param appModule the app module, for mounts and setup steps; when it does not load, plugins are listed without those checks.
 */
export async function listProjectPlugins(root: string, appModule: string, env: Env): Promise<string> {
  const entries = await loadProjectPlugins(root);
  if (entries.length === 0) return 'No plugins.\n';
  let app: App | undefined;
  let appProblem: string | undefined;
  try {
    app = await loadApp(root, appModule);
  } catch (error) {
    appProblem = (error as Error).message;
  }
  const seen = new Set<string>();
  const rows: string[][] = [];
  const notes: string[] = [];
  for (const entry of entries) {
    const problem = problemOf(entry, seen, env, app);
    const plugin = entry.plugin;
    const step = plugin && app ? app.setup.find((s) => isPluginStep(s) && s.name === `plugin:${plugin.name}`) : undefined;
    const mount = step && isPluginStep(step) ? step[PLUGIN_STEP].mount : undefined;
    const name = `${plugin?.name ?? entry.package}${entry.version ? ` ${entry.version}` : ''}${problem ? ' (not loaded)' : ''}`;
    rows.push([
      name,
      typeof plugin?.bindery === 'string' ? plugin.bindery : '?',
      plugin ? routesSummary(plugin, mount) : '—',
      plugin ? addsSummary(plugin) : '—',
    ]);
    if (problem) notes.push(`${plugin?.name ?? entry.package} (${entry.package}) is not loaded: ${problem}\n`);
  }
  let text = formatTable(['PLUGIN', 'REQUIRES', 'ROUTES', 'ADDS'], rows);
  if (notes.length > 0) text += `\n${notes.join('')}`;
  text += `\nbindery ${FRAMEWORK_VERSION}; ${entries.length} plugin${entries.length === 1 ? '' : 's'} in package.json (bindery.plugins).\n`;
  if (appProblem) text += `The app module does not load, so mounts and setup steps were not checked: ${appProblem}\n`;
  return text;
}

/**
 * The text of `bindery plugins:env [plugin]`.
 * @param only a plugin name or package name; all plugins when absent.
 * @throws {PluginNotFoundError} when `only` names no plugin of the list.
 */
export async function pluginsEnvText(root: string, only?: string): Promise<string> {
  const entries = await loadProjectPlugins(root);
  const chosen = only === undefined ? entries : entries.filter((e) => e.package === only || e.plugin?.name === only);
  if (only !== undefined && chosen.length === 0) {
    const names = entries.map((e) => e.plugin?.name ?? e.package);
    throw new PluginNotFoundError(
      `No plugin named "${only}" is in the plugin list (package.json bindery.plugins)${names.length ? `; the plugins are: ${names.join(', ')}` : '; the list is empty'}.`,
    );
  }
  if (chosen.length === 0) return 'No plugins.\n';
  return chosen.map((e) => (e.plugin ? pluginEnvText(e.plugin) : `# ${e.package}\n# (not loaded: ${e.error})\n`)).join('\n');
}
