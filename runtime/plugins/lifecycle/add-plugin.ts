/**
 * `bindery add <package>[@version]` (docs/spec.md 9 "Plugin
 * lifecycle commands"; docs/plugins.md "Adding a plugin").
 *
 * 1. Reads the package's package.json (folder, tarball or registry) and
 *    checks it declares a framework range (`peerDependencies.bindery`) that
 *    this bindery satisfies — or plans an upgrade of the framework — before
 *    changing anything: a refused plugin leaves every file as it was.
 * 2. Saves package.json, the lock files, `generated/plugins.ts` and
 *    `.env.example`, and moves aside what node_modules holds under the name.
 * 3. Upgrades bindery when planned (`npm install bindery@"<range>"`, reported).
 * 4. Installs the package (`npm install`), lists it in `bindery.plugins`,
 *    regenerates (`generated/plugins.ts`), loads it and checks its manifest,
 *    type-checks the project (`tsc --noEmit`), and appends its settings
 *    (what `bindery plugins:env <plugin>` prints) to `.env.example`.
 * 5. When any step fails, puts every saved file and folder back and says
 *    which step failed and why.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { checkPluginManifest, checkPluginName, checkPluginVersion } from '../check-plugin.js';
import type { Plugin } from '../define-plugin.js';
import { pluginEnvText } from '../describe-plugin.js';
import { PluginError, PluginLifecycleError, PluginNameTakenError, PluginVersionError } from '../errors.js';
import { FRAMEWORK_VERSION } from '../framework-version.js';
import { importPluginPackage, PLUGIN_LIST_FILE, readPluginPackages, readProjectPackage } from '../project-plugins.js';
import { appendEnvBlock } from './env-example.js';
import { FileSnapshot } from './file-snapshot.js';
import { planFramework } from './framework-upgrade.js';
import { inspectPackage, isInside, type PackageInfo } from './inspect-package.js';
import { outputTail, runProcess } from './run-process.js';
import { needDevTool } from '../../support/dev-tools.js';

/** Files `add` and `remove` may change, relative to the project root. */
export const LIFECYCLE_FILES = [
  'package.json',
  'package-lock.json',
  'node_modules/.package-lock.json',
  PLUGIN_LIST_FILE,
  '.env.example',
] as const;

/** Options of {@link addPlugin}. */
export interface AddPluginOptions {
  /** The project root. */
  readonly root: string;
  /** `<package>[@version]`, a folder or a tarball. */
  readonly spec: string;
  /** Progress lines. */
  readonly out: (text: string) => void;
  /** Skip `tsc --noEmit` (default: run it when the project has tsconfig.json). */
  readonly skipTypeCheck?: boolean;
}

/** What `add` did. */
export interface AddPluginResult {
  readonly package: string;
  readonly version: string;
  readonly plugin: string;
  /** Settings appended to `.env.example`. */
  readonly settingsAdded: readonly string[];
  /** The framework version after the upgrade, when there was one. */
  readonly upgradedTo?: string;
}

/** One step of add/remove: its name for messages, and its work. */
export async function step<T>(name: string, out: (text: string) => void, work: () => Promise<T>): Promise<T> {
  out(`  ${name} … `);
  try {
    const value = await work();
    out('done\n');
    return value;
  } catch (error) {
    out('failed\n');
    throw Object.assign(error instanceof Error ? error : new Error(String(error)), { step: name });
  }
}

/** Run `npm <args>` in the project; throw with its output on failure. */
export async function npm(root: string, args: readonly string[]): Promise<void> {
  const r = await runProcess('npm', [...args, '--no-audit', '--no-fund'], root);
  if (r.code !== 0) throw new Error(`npm ${args.join(' ')} failed (exit ${r.code}):\n${outputTail(r)}`);
}

/** Regenerate the project (`generated/`, the plugin list file included), in process or with the project's own bindery after an upgrade. */
export async function regenerate(root: string, spawned: boolean): Promise<void> {
  if (spawned) {
    const bin = projectBin(root);
    const r = await runProcess(process.execPath, [bin, 'generate'], root);
    if (r.code !== 0) throw new Error(`bindery generate failed:\n${outputTail(r)}`);
    return;
  }
  needDevTool('ts-morph', { task: 'Adding or removing a plugin' });
  const { generate, formatDiagnostic } = await import('../../../generator/index.js');
  const result = await generate({ root });
  if (!result.ok)
    throw new Error(`bindery generate found schema errors:\n${result.diagnostics.map((d) => `    ${formatDiagnostic(d)}`).join('\n')}`);
}

/** `tsc --noEmit -p <root>` with the project's TypeScript; skipped (with a note) without tsconfig.json or TypeScript. */
export async function typeCheck(root: string, out: (text: string) => void): Promise<void> {
  if (!existsSync(join(root, 'tsconfig.json'))) {
    out('(no tsconfig.json: skipped) ');
    return;
  }
  let tsc: string;
  try {
    tsc = join(createRequire(join(root, 'package.json')).resolve('typescript/package.json'), '..', 'bin', 'tsc');
  } catch {
    out('(TypeScript is not installed: skipped) ');
    return;
  }
  const r = await runProcess(process.execPath, [tsc, '--noEmit', '-p', root], root);
  if (r.code !== 0) throw new Error(`tsc --noEmit reports errors:\n${outputTail(r, 40)}`);
}

/** The project's bindery CLI: `bin/bindery.mjs` of the framework repository itself, or of node_modules/bindery. */
export function projectBin(root: string): string {
  if (existsSync(join(root, 'bin', 'bindery.mjs')) && existsSync(join(root, 'runtime', 'cli', 'main.ts')))
    return join(root, 'bin', 'bindery.mjs');
  return join(createRequire(join(root, 'package.json')).resolve('bindery/package.json'), '..', 'bin', 'bindery.mjs');
}

/** Write package.json with `bindery.plugins` changed by `edit`, keeping its indentation. */
export async function editPluginList(root: string, edit: (list: string[]) => string[]): Promise<void> {
  const path = join(root, 'package.json');
  const text = await readFile(path, 'utf8');
  const json = JSON.parse(text) as Record<string, unknown>;
  const indent = /^(\s+)"/m.exec(text)?.[1] ?? '  ';
  const section = (json.bindery && typeof json.bindery === 'object' ? json.bindery : {}) as { plugins?: unknown };
  const list = Array.isArray(section.plugins) ? section.plugins.filter((p): p is string => typeof p === 'string') : [];
  json.bindery = { ...section, plugins: edit(list) };
  await writeFile(path, `${JSON.stringify(json, null, indent)}\n`);
}

/** The installed bindery version (after an upgrade). */
async function installedFramework(root: string): Promise<string> {
  const pkg = join(createRequire(join(root, 'package.json')).resolve('bindery/package.json'));
  return (JSON.parse(await readFile(pkg, 'utf8')) as { version: string }).version;
}

/**
 * Add a plugin to the project (see the module doc).
 * @throws {PluginNotFoundError} when the package cannot be found (nothing changed).
 * @throws {PluginVersionError} when its framework range is refused (nothing changed).
 * @throws {PluginError} when it is not a bindery plugin (nothing changed).
 * @throws {PluginNameTakenError} when it is already listed (nothing changed).
 * @throws {PluginLifecycleError} when a step failed; every file was restored.
 */
export async function addPlugin(options: AddPluginOptions): Promise<AddPluginResult> {
  const { root, spec, out } = options;
  const info: PackageInfo = await inspectPackage(spec, root);
  const label = `${info.name} ${info.version}`;
  if (info.binderyRange === undefined) {
    throw new PluginError(
      `${label} is not a bindery plugin: its package.json has no peerDependencies.bindery (the framework versions it supports). Nothing was changed.`,
    );
  }
  const listed = await readPluginPackages(root);
  if (listed.includes(info.name))
    throw new PluginNameTakenError(
      `${info.name} is already in the plugin list (package.json bindery.plugins); "bindery remove ${info.name}" first to add another version. Nothing was changed.`,
    );
  const project = await readProjectPackage(root);
  const plan = planFramework(label, info.binderyRange, FRAMEWORK_VERSION, {
    isFramework: project.name === 'bindery',
    ...(typeof project.dependencies?.bindery === 'string'
      ? { dependencySpec: project.dependencies.bindery as string }
      : typeof project.devDependencies?.bindery === 'string'
        ? { dependencySpec: project.devDependencies.bindery as string }
        : {}),
  });
  if (plan.action === 'refuse') throw new PluginVersionError(plan.message);

  out(`Adding ${label} (supports bindery ${info.binderyRange}; this is bindery ${FRAMEWORK_VERSION}):\n`);
  const snapshot = new FileSnapshot(root);
  await snapshot.saveFiles(LIFECYCLE_FILES);
  let upgradedTo: string | undefined;
  try {
    if (plan.action === 'upgrade') {
      out(`${plan.message}\n`);
      await step(`upgrade bindery (npm install bindery@"${plan.range}")`, out, () => npm(root, ['install', `bindery@${plan.range}`]));
      upgradedTo = await installedFramework(root);
      out(`Upgraded bindery ${FRAMEWORK_VERSION} → ${upgradedTo}.\n`);
    }
    await snapshot.moveAside(join('node_modules', info.name));
    const linkFolder = info.kind === 'folder' && isInside(root, info.path!);
    await step(`install (npm install ${spec})`, out, () =>
      npm(root, [
        'install',
        info.kind === 'registry' ? spec : info.path!,
        ...(info.kind === 'folder' && !linkFolder ? ['--install-links'] : []),
      ]),
    );
    await step(`list in package.json (bindery.plugins) and generate ${PLUGIN_LIST_FILE}`, out, async () => {
      await editPluginList(root, (list) => [...list, info.name]);
      await regenerate(root, upgradedTo !== undefined);
    });
    const plugin = await step('load the plugin and check its manifest', out, async () => {
      const loaded = await importPluginPackage(root, info.name);
      if (!loaded.plugin) throw new Error(loaded.error ?? 'the package is not a plugin');
      const seen = new Set<string>();
      for (const other of listed) {
        const o = await importPluginPackage(root, other);
        if (o.plugin && typeof o.plugin.name === 'string') seen.add(o.plugin.name);
      }
      checkPluginName(loaded.plugin, seen, info.name);
      checkPluginVersion(loaded.plugin, upgradedTo ?? FRAMEWORK_VERSION);
      checkPluginManifest(loaded.plugin);
      return loaded.plugin as Plugin;
    });
    if (!options.skipTypeCheck) await step('type-check (tsc --noEmit)', out, () => typeCheck(root, out));
    const added = await step('append its settings to .env.example', out, async () => {
      const path = join(root, '.env.example');
      const current = existsSync(path) ? await readFile(path, 'utf8') : '';
      const { text, added: names } = appendEnvBlock(current, pluginEnvText(plugin));
      if (names.length > 0) await writeFile(path, text);
      return names;
    });
    await snapshot.discard();
    out(`Added ${label} as the plugin "${plugin.name}"${upgradedTo ? ` (bindery upgraded to ${upgradedTo})` : ''}.\n`);
    out(
      added.length > 0
        ? `Set ${added.join(', ')} in .env (see "bindery plugins:env ${plugin.name}")${plugin.migrations !== undefined ? ', then run "bindery migrate"' : ''}.\n`
        : plugin.migrations !== undefined
          ? 'Run "bindery migrate" to create its tables.\n'
          : '',
    );
    return { package: info.name, version: info.version, plugin: plugin.name, settingsAdded: added, ...(upgradedTo ? { upgradedTo } : {}) };
  } catch (error) {
    await snapshot.restore();
    if (upgradedTo !== undefined) {
      out('Putting the previous bindery back (npm install) … ');
      try {
        await npm(root, ['install']);
        out('done\n');
      } catch (restoreError) {
        out(`failed: ${(restoreError as Error).message}\n`);
      }
    }
    const stepName = (error as { step?: string }).step ?? 'add';
    throw new PluginLifecycleError(
      `bindery add ${spec} failed at "${stepName}": ${(error as Error).message}\nEvery file it changed was restored (package.json, the lock files, ${PLUGIN_LIST_FILE}, .env.example, node_modules/${info.name}).`,
      { cause: error },
    );
  }
}
