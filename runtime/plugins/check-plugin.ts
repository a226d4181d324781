/**
 * The rules a plugin must follow (docs/spec.md 9; docs/plugins.md "Loading"),
 * checked when the app loads its plugin list, in list order.
 */
import type { StepRequirement } from '../app/setup-step.js';
import { isNamespacedName, namespaceOf } from '../jobs/names.js';
import semver from 'semver';
import type { Plugin } from './define-plugin.js';
import { isPlugin } from './define-plugin.js';
import { PluginError, PluginNameReservedError, PluginNameTakenError, PluginVersionError } from './errors.js';
import { FRAMEWORK_VERSION, frameworkSatisfies, isValidRange } from './framework-version.js';
import { isReservedPluginName, RESERVED_PLUGIN_NAMES } from './reserved-names.js';

/** Plugin names: lower-case letters and digits, words joined by `_`, at most 40 characters. */
export const PLUGIN_NAME = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

/** The prefix of a plugin's settings: its name in capitals and `_` (`MAILPROVIDER_`). */
export function settingsPrefix(name: string): string {
  return `${name.toUpperCase()}_`;
}

/** How messages name a plugin. */
export function pluginLabel(name: string): string {
  return `the plugin "${name}"`;
}

/**
 * Check a plugin's name: a manifest, a valid name, not reserved, not taken.
 * @param seen names of the plugins before it in the list (the name is added).
 * @param where how to name the entry when it is not a manifest, e.g. `entry 2 of the plugin list`.
 * @throws {PluginError} | {PluginNameReservedError} | {PluginNameTakenError}
 */
export function checkPluginName(plugin: unknown, seen: Set<string>, where: string): asserts plugin is Plugin {
  if (!isPlugin(plugin))
    throw new PluginError(`${where} is not a plugin: a plugin package default-exports definePlugin({ … }) from "bindery/plugins".`);
  const name = plugin.name;
  if (typeof name !== 'string' || name.length > 40 || !PLUGIN_NAME.test(name)) {
    throw new PluginError(
      `Plugin name ${JSON.stringify(name)} (${where}) is invalid: use lower-case letters and digits, words joined by "_", starting with a letter, e.g. "mailprovider".`,
    );
  }
  if (isReservedPluginName(name)) {
    throw PluginNameReservedError.from({ name, reserved: RESERVED_PLUGIN_NAMES.join(', ') });
  }
  if (seen.has(name))
    throw new PluginNameTakenError(
      `Two plugins are named "${name}"; plugin names must be unique: remove one from the plugin list ("bindery remove <package>").`,
    );
  seen.add(name);
}

/**
 * Check that this framework version is in the plugin's range.
 * @throws {PluginError} when the range is not a semver range.
 * @throws {PluginVersionError} when the version is outside it, saying which way.
 */
export function checkPluginVersion(plugin: Plugin, version: string = FRAMEWORK_VERSION): void {
  const range = plugin.bindery;
  if (!isValidRange(range))
    throw new PluginError(
      `${pluginLabel(plugin.name)} declares ${JSON.stringify(range)} as its framework range, which is not a semver range (e.g. ">=0.3.0 <0.4.0").`,
    );
  if (frameworkSatisfies(range, version)) return;
  const newer = semver.ltr(version, range, { includePrerelease: true });
  throw new PluginVersionError(
    newer
      ? `${pluginLabel(plugin.name)} requires bindery ${range}; this app runs bindery ${version}, which is older: upgrade bindery to a version in that range, or use a version of the plugin made for ${version}.`
      : `${pluginLabel(plugin.name)} requires bindery ${range}; this app runs bindery ${version}, which is newer than the plugin supports: use a version of the plugin made for ${version}.`,
  );
}

/** The setup steps a plugin needs before it: those its jobs, tasks and listeners imply, then its own `requires`. */
export function neededSteps(plugin: Plugin): StepRequirement[] {
  const needs: StepRequirement[] = [];
  const add = (r: StepRequirement) => {
    if (!needs.some((n) => n.name === r.name)) needs.push(r);
  };
  // Declared events need nothing: emitted with emitEvent, they do nothing in an app without events().
  if ((plugin.jobs?.length ?? 0) > 0 || (plugin.schedule?.length ?? 0) > 0 || (plugin.listeners?.length ?? 0) > 0)
    add({ name: 'jobs', call: 'jobs()' });
  if ((plugin.schedule?.length ?? 0) > 0) add({ name: 'schedule', call: 'schedule()' });
  if ((plugin.listeners?.length ?? 0) > 0) add({ name: 'events', call: 'events()' });
  for (const r of plugin.requires ?? []) add(r);
  return needs;
}

/**
 * Check that everything a plugin adds is in its namespace (docs/spec.md 9): settings
 * `<NAME>_…`, commands `<name>:…`, jobs, tasks, events and listeners
 * `<name>:…`, routes named `<name>.…` under `/<name>`, middleware `<name>.…`,
 * migrations with a root.
 * @throws {PluginError} naming the first thing out of place and the rule.
 */
export function checkPluginManifest(plugin: Plugin): void {
  const name = plugin.name;
  const label = pluginLabel(name);
  const fail = (what: string) => {
    throw new PluginError(`${label}: ${what}`);
  };
  const prefix = settingsPrefix(name);
  for (const setting of Object.keys(plugin.settings?.specs ?? {})) {
    if (!setting.startsWith(prefix) || setting.length === prefix.length)
      fail(`the setting ${setting} must start with ${prefix} (its name in capitals).`);
  }
  if (
    plugin.migrations !== undefined &&
    (typeof plugin.root !== 'string' || (!plugin.root.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(plugin.root)))
  ) {
    fail("it has migrations but no absolute root: set root to fileURLToPath(new URL('..', import.meta.url)).");
  }
  for (const command of plugin.commands ?? []) {
    for (const path of command.paths ?? []) {
      const first = path[0] ?? '';
      if (!first.startsWith(`${name}:`) || first.length === name.length + 1)
        fail(`the command "${path.join(' ')}" must be named ${name}:… .`);
    }
  }
  const namespaced = (kind: string, items: readonly { readonly name: string }[] | undefined) => {
    for (const item of items ?? []) {
      if (!isNamespacedName(item.name) || namespaceOf(item.name) !== name) fail(`the ${kind} "${item.name}" must be named ${name}:… .`);
    }
  };
  namespaced('job', plugin.jobs);
  namespaced('scheduled task', plugin.schedule);
  namespaced('event', plugin.events);
  namespaced('listener', plugin.listeners);
  const routes = plugin.routes;
  if (routes) {
    for (const route of routes.table) {
      if (!route.name.startsWith(`${name}.`)) fail(`the route "${route.name}" must be named ${name}.… .`);
      if (route.path !== `/${name}` && !route.path.startsWith(`/${name}/`))
        fail(`the route "${route.name}" (${route.path}) must sit under /${name}; the app can mount it elsewhere.`);
      if (!(route.name in routes.handlers)) fail(`the route "${route.name}" has no handler.`);
    }
    for (const handler of Object.keys(routes.handlers)) {
      if (!routes.table.some((r) => r.name === handler)) fail(`a handler is given for "${handler}", which is not one of its routes.`);
    }
    for (const middleware of Object.keys(routes.middleware ?? {})) {
      if (!middleware.startsWith(`${name}.`)) fail(`the middleware "${middleware}" must be named ${name}.… .`);
    }
    for (const [route, options] of Object.entries(routes.options ?? {})) {
      if (!routes.table.some((r) => r.name === route)) fail(`routes.options names "${route}", which is not one of its routes.`);
      const limit = options.bodyLimit;
      if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 1))
        fail(`the body limit of "${route}" must be a positive whole number of bytes.`);
    }
  }
}
