/**
 * `bindery remove <package>` (docs/spec.md 9; docs/plugins.md
 * "Removing a plugin"): takes the plugin off the plugin list, uninstalls
 * its package (unless it is a workspace of the project), regenerates and
 * type-checks — restoring every file when a step fails. Its settings and its
 * tables stay (docs/plugins.md "Dropping a plugin's tables" says how to drop
 * them).
 */
import { join } from 'node:path';
import { PluginLifecycleError, PluginNotFoundError } from '../errors.js';
import { importPluginPackage, PLUGIN_LIST_FILE, readPluginPackages, readProjectPackage } from '../project-plugins.js';
import { editPluginList, LIFECYCLE_FILES, npm, regenerate, step, typeCheck } from './add-plugin.js';
import { FileSnapshot } from './file-snapshot.js';

/** Options of {@link removePlugin}. */
export interface RemovePluginOptions {
  readonly root: string;
  /** The package name, or the plugin's name. */
  readonly name: string;
  readonly out: (text: string) => void;
  readonly skipTypeCheck?: boolean;
}

/** What `remove` did. */
export interface RemovePluginResult {
  readonly package: string;
  /** The plugin's name (its migration source), when the package still loaded. */
  readonly plugin?: string;
  /** The package was uninstalled (false for a workspace of the project, which stays). */
  readonly uninstalled: boolean;
}

/**
 * Remove a plugin from the project.
 * @throws {PluginNotFoundError} when it is not in the plugin list (nothing changed).
 * @throws {PluginLifecycleError} when a step failed; every file was restored.
 */
export async function removePlugin(options: RemovePluginOptions): Promise<RemovePluginResult> {
  const { root, name, out } = options;
  const listed = await readPluginPackages(root);
  let pkg = listed.find((p) => p === name);
  let pluginName: string | undefined;
  if (pkg === undefined) {
    for (const p of listed) {
      const loaded = await importPluginPackage(root, p);
      if (loaded.plugin?.name === name) {
        pkg = p;
        pluginName = name;
      }
    }
  }
  if (pkg === undefined) {
    throw new PluginNotFoundError(
      `"${name}" is not in the plugin list (package.json bindery.plugins)${listed.length ? `; it lists ${listed.join(', ')}` : '; the list is empty'}. Nothing was changed.`,
    );
  }
  const thePackage = pkg;
  pluginName ??= (await importPluginPackage(root, thePackage)).plugin?.name;
  const project = await readProjectPackage(root);
  const dependency = project.dependencies?.[thePackage] !== undefined || project.devDependencies?.[thePackage] !== undefined;

  out(`Removing ${thePackage}${pluginName ? ` (the plugin "${pluginName}")` : ''}:\n`);
  const snapshot = new FileSnapshot(root);
  await snapshot.saveFiles(LIFECYCLE_FILES);
  try {
    await step(`take it off package.json (bindery.plugins) and generate ${PLUGIN_LIST_FILE}`, out, async () => {
      await editPluginList(root, (list) => list.filter((p) => p !== thePackage));
      await regenerate(root, false);
    });
    if (dependency) {
      await snapshot.moveAside(join('node_modules', thePackage));
      await step(`uninstall (npm uninstall ${thePackage})`, out, () => npm(root, ['uninstall', thePackage]));
    }
    if (!options.skipTypeCheck) await step('type-check (tsc --noEmit)', out, () => typeCheck(root, out));
    await snapshot.discard();
  } catch (error) {
    await snapshot.restore();
    const stepName = (error as { step?: string }).step ?? 'remove';
    throw new PluginLifecycleError(
      `bindery remove ${name} failed at "${stepName}": ${(error as Error).message}\nEvery file it changed was restored (package.json, the lock files, ${PLUGIN_LIST_FILE}, node_modules/${thePackage}).`,
      { cause: error },
    );
  }
  out(`Removed ${thePackage}${dependency ? '' : ' from the plugin list (a workspace of this project: its folder stays)'}.\n`);
  out(
    `Its settings stay in .env and .env.example, and its tables in the database${pluginName ? ` (migrations recorded with source "${pluginName}")` : ''}; docs/plugins.md "Dropping a plugin's tables" says how to drop them.\n`,
  );
  return { package: thePackage, ...(pluginName ? { plugin: pluginName } : {}), uninstalled: dependency };
}
