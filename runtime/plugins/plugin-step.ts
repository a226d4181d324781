/**
 * Loading plugins into an app (docs/spec.md 9 "Loading a plugin
 * happens last in setup"; docs/plugins.md "Loading").
 *
 * `plugins(pluginList)` turns the generated plugin list into one setup step
 * per plugin, to spread last in the app's setup list. For each plugin, in
 * list order:
 *
 * 1. when the app module loads: the name (a manifest, valid, not reserved,
 *    unique), the framework version range, the namespaces of what it adds;
 * 2. at boot, with the app's settings: its settings (missing or invalid ones
 *    stop the boot with every other bad setting);
 * 3. at boot, in its setup step: the setup steps it needs (a missing one fails
 *    the boot naming the call to add), then its jobs, scheduled tasks,
 *    events, listeners, middleware and routes, then its boot work.
 *
 * Its migrations join the app's (`bindery migrate`, source = its name) and
 * its commands the CLI's.
 */
import { isAbsolute, resolve } from 'node:path';
import type { SetupContext, SetupStep } from '../app/setup-step.js';
import type { SettingsDefinition } from '../config/define-settings.js';
import { eventBusOf } from '../events/events-step.js';
import type { Services } from '../http/context.js';
import { jobsRuntimeOf } from '../jobs/jobs-runtime.js';
import type { RouteDefinition } from '../routing/route-table.js';
import { registerScheduledTask } from '../schedule/register-task.js';
import { checkPluginManifest, checkPluginName, checkPluginVersion, neededSteps, pluginLabel } from './check-plugin.js';
import type { Plugin, PluginSetupContext } from './define-plugin.js';
import { PluginError, PluginNeedsSetupError } from './errors.js';
import type { SettingSpecs } from '../config/setting.js';

/** Options of {@link plugins}. */
export interface PluginsOptions {
  /**
   * Serve a plugin's routes under another prefix than `/<name>`, by plugin
   * name: `{ mailprovider: '/hooks/mail' }` serves `/mailprovider/webhook` at
   * `/hooks/mail/webhook`. Route names do not change.
   */
  readonly mount?: Readonly<Record<string, string>>;
}

/** What a plugin's setup step carries, for `bindery plugins:list`. */
export interface PluginStepInfo {
  readonly plugin: Plugin;
  /** The prefix its routes are served under. */
  readonly mount: string;
}

/** Marks setup steps made by {@link plugins}. */
export const PLUGIN_STEP: unique symbol = Symbol.for('bindery.plugin-step') as never;

/** A setup step made by {@link plugins}. */
export interface PluginStep extends SetupStep {
  readonly [PLUGIN_STEP]: PluginStepInfo;
}

/** True when `step` was made by {@link plugins}. */
export function isPluginStep(step: SetupStep): step is PluginStep {
  return (step as Partial<PluginStep>)[PLUGIN_STEP] !== undefined;
}

const MOUNT = /^(\/[A-Za-z0-9._~-]+)+$/;

/**
 * One setup step per plugin of `list`, in order; spread them last in the
 * app's setup list.
 *
 * @param list the plugin list: `plugins` of `generated/plugins.ts`.
 * @param options `mount`: other prefixes for plugins' routes.
 * @returns the steps (`plugin:<name>` each).
 * @throws {PluginError} for an entry that is not a plugin, a bad name, range or manifest, or a bad `mount`.
 * @throws {PluginNameReservedError} | {PluginNameTakenError} | {PluginVersionError}
 * @example
 *   import { plugins as pluginList } from '../generated/plugins.js';
 *   setup: [jobs(), schedule(), events(), ...plugins(pluginList, { mount: { mailprovider: '/hooks/mail' } })]
 */
export function plugins(list: readonly unknown[], options: PluginsOptions = {}): PluginStep[] {
  const seen = new Set<string>();
  const steps: PluginStep[] = [];
  list.forEach((plugin, index) => {
    checkPluginName(plugin, seen, `entry ${index + 1} of the plugin list`);
    checkPluginVersion(plugin);
    checkPluginManifest(plugin);
    const mount = options.mount?.[plugin.name] ?? `/${plugin.name}`;
    if (!MOUNT.test(mount))
      throw new PluginError(`The mount of ${pluginLabel(plugin.name)}, ${JSON.stringify(mount)}, is not a path prefix like "/hooks/mail".`);
    steps.push(pluginStep(plugin, mount));
  });
  for (const name of Object.keys(options.mount ?? {})) {
    if (!seen.has(name)) throw new PluginError(`plugins(…, { mount }) names "${name}", which is not in the plugin list.`);
  }
  return steps;
}

/** The setup step of one checked plugin. */
function pluginStep(plugin: Plugin, mount: string): PluginStep {
  const name = plugin.name;
  const label = pluginLabel(name);
  const root = plugin.root;
  return {
    name: `plugin:${name}`,
    call: `plugin "${name}"`,
    ...(plugin.settings ? { settings: plugin.settings } : {}),
    ...(plugin.migrations !== undefined
      ? { migrations: [{ source: name, dir: isAbsolute(plugin.migrations) ? plugin.migrations : resolve(root!, plugin.migrations) }] }
      : {}),
    ...(plugin.commands ? { commands: plugin.commands } : {}),
    [PLUGIN_STEP]: { plugin, mount },
    async setup(ctx: SetupContext) {
      for (const need of neededSteps(plugin)) {
        if (!ctx.done.has(need.name)) {
          throw new PluginNeedsSetupError(
            `${capitalize(label)} needs ${need.call} set up before it: add ${need.call} to the setup list of app/main.ts, before ...plugins(…).`,
          );
        }
      }
      const runtime = jobsRuntimeOf(ctx.services);
      for (const job of plugin.jobs ?? []) runtime!.registerJob(job, label);
      for (const task of plugin.schedule ?? []) registerScheduledTask(runtime!, task, label);
      const bus = eventBusOf(ctx.services);
      if (bus) for (const event of plugin.events ?? []) bus.declare(event, label);
      for (const listener of plugin.listeners ?? []) bus!.listen(listener, label);
      if (plugin.routes) {
        for (const [middlewareName, middleware] of Object.entries(plugin.routes.middleware ?? {}))
          ctx.addMiddleware(middlewareName, middleware);
        const options = plugin.routes.options ?? {};
        const table: RouteDefinition[] = plugin.routes.table.map((route) => {
          const o = options[route.name];
          return {
            ...route,
            path: mount + route.path.slice(name.length + 1),
            ...(o?.bodyLimit !== undefined ? { bodyLimit: o.bodyLimit } : {}),
            ...(o?.jsonOnly ? { jsonOnly: true } : {}),
          };
        });
        ctx.addRoutes(table, plugin.routes.handlers);
      }
      if (plugin.setup) {
        const settings: Record<string, unknown> = plugin.settings
          ? ctx.settingsOf(plugin.settings as SettingsDefinition<SettingSpecs>)
          : {};
        const pluginCtx: PluginSetupContext<SettingSpecs> = {
          plugin: { name, root },
          app: ctx.app,
          settings,
          services: ctx.services as unknown as Services,
          database: ctx.database,
          log: ctx.log.child({ plugin: name }),
          addReadinessCheck: (check, fn) => ctx.addReadinessCheck(`${name}.${check}`, fn),
          onClose: (fn) => ctx.onClose(fn),
        };
        await plugin.setup(pluginCtx);
      }
    },
  };
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
