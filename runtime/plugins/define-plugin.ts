/**
 * The plugin manifest (docs/spec.md 9; docs/plugins.md "Manifest").
 *
 * A plugin is an npm package whose default export is `definePlugin({...})`:
 * its name, the framework versions it supports, and what it adds — settings,
 * migrations, CLI commands, jobs, routes, scheduled tasks, events, listeners
 * and boot work — each in the plugin's namespace.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { CommandClass } from 'clipanion';
import type { ReadinessCheck, StepRequirement } from '../app/setup-step.js';
import type { BinderyContext } from '../app/define-app.js';
import type { SettingsDefinition } from '../config/define-settings.js';
import type { SettingSpecs, SettingsValues } from '../config/setting.js';
import type { Database } from '../db/connect.js';
import type { Services } from '../http/context.js';
import type { Middleware } from '../http/handler.js';
import type { RouteTable } from '../routing/route-table.js';
import type { ScheduledTask } from '../schedule/define-scheduled-task.js';
import type { AnyJobDefinition } from '../jobs/define-job.js';
import type { AnyEventDefinition, AnyListener } from '../events/define-event.js';
import type { AnyRouteHandler } from '../http/handler.js';

/** Options of one plugin route (see {@link PluginRoutes.options}). */
export interface PluginRouteOptions {
  /** Largest body, in bytes. */
  readonly bodyLimit?: number;
  /** Only JSON bodies: an unparseable content type is 400, not 415. */
  readonly jsonOnly?: boolean;
}

/** A plugin's routes: its generated route table, their handlers, its middleware. */
export interface PluginRoutes {
  /** The plugin's `generated/routes.ts` table: names `<plugin>.…`, paths under `/<plugin>`. */
  readonly table: RouteTable;
  /** One handler per route name. */
  readonly handlers: Readonly<Record<string, AnyRouteHandler>>;
  /** Middleware its routes' groups name, each named `<plugin>.…`. */
  readonly middleware?: Readonly<Record<string, Middleware>>;
  /**
   * Options per route name: `bodyLimit`, the largest body in bytes when it
   * should differ from `HTTP_MAX_BODY` (larger gets 413); `jsonOnly`, a body
   * of a type bindery cannot parse is 400 rather than 415 (a webhook).
   */
  readonly options?: Readonly<Record<string, PluginRouteOptions>>;
}

/** What a plugin's boot work receives. */
export interface PluginSetupContext<S extends SettingSpecs = SettingSpecs> {
  /** The plugin's name and package folder. */
  readonly plugin: { readonly name: string; readonly root: string | undefined };
  /** The app's name and root. */
  readonly app: { readonly name: string; readonly root: string };
  /** The plugin's own settings, typed and checked. */
  readonly settings: SettingsValues<S>;
  /** The app's services; a plugin adds its own under its name (`services.mailprovider`). */
  readonly services: Services;
  readonly database: Database;
  /** The app logger with a `plugin` field. */
  readonly log: FastifyBaseLogger;
  /** Add a check to `GET /health/ready`, named `<plugin>.<name>`. */
  addReadinessCheck(name: string, check: ReadinessCheck): void;
  /** Shutdown work, before the database closes. */
  onClose(fn: () => void | Promise<void>): void;
}

/** What {@link definePlugin} takes. */
export interface PluginSpec<S extends SettingSpecs = SettingSpecs> {
  /** Lower-case letters and digits (`_` inside), not reserved: the namespace of everything it adds. Settings start with it in capitals. */
  readonly name: string;
  /** The framework versions it supports, a semver range: `>=0.3.0 <0.4.0`. Keep it equal to `peerDependencies.bindery` of its package.json. */
  readonly bindery: string;
  /** One line saying what it does (`plugins:list`, docs). */
  readonly description?: string;
  /** Its package folder, absolute: `fileURLToPath(new URL('..', import.meta.url))` from `src/index.ts`. Needed for `migrations`. */
  readonly root?: string;
  /** Its settings, each named `<NAME>_…` (its name in capitals). Checked at boot with the app's; missing or invalid ones stop the boot. */
  readonly settings?: SettingsDefinition<S>;
  /** Folder of its SQL migrations, relative to `root` (recorded with source = its name; `bindery migrate` runs them). */
  readonly migrations?: string;
  /** Setup steps it needs besides those its jobs, tasks and listeners imply (`jobs()`, `schedule()`, `events()`): `[{ name: 'session', call: 'session()' }]`. */
  readonly requires?: readonly StepRequirement[];
  readonly routes?: PluginRoutes;
  /** CLI commands, each named `<name>:…` (extend `AppCommand`). */
  readonly commands?: readonly CommandClass<BinderyContext>[];
  /** Jobs, named `<name>:…` (need `jobs()`). */
  readonly jobs?: readonly AnyJobDefinition[];
  /** Scheduled tasks, named `<name>:…` (need `schedule()`). */
  readonly schedule?: readonly ScheduledTask[];
  /** Events it emits, named `<name>:…` (declared when the app has `events()`; emit them with `emitEvent`, which does nothing without it). */
  readonly events?: readonly AnyEventDefinition[];
  /** Listeners, named `<name>:…`, of any event (need `events()`). */
  readonly listeners?: readonly AnyListener[];
  /** Boot work, run after the rest is added (last in setup, in plugin-list order). */
  setup?(ctx: PluginSetupContext<S>): void | Promise<void>;
}

/** A plugin manifest. Create it with {@link definePlugin}. */
export interface Plugin<S extends SettingSpecs = SettingSpecs> extends PluginSpec<S> {
  readonly [PLUGIN_BRAND]: true;
}

/** Marks values made by {@link definePlugin} (shared across module copies). */
export const PLUGIN_BRAND: unique symbol = Symbol.for('bindery.plugin') as never;

/**
 * Declare a plugin: the default export of its package.
 *
 * Nothing is checked here: the app checks every rule when it loads the
 * plugin list (`plugins(pluginList)`), in list order — name, version range,
 * namespaces — then its settings at boot (docs/plugins.md "Loading").
 *
 * @example
 *   export default definePlugin({
 *     name: 'mailprovider',
 *     bindery: '>=0.3.0 <0.4.0',
 *     root: fileURLToPath(new URL('..', import.meta.url)),
 *     settings: mailproviderSettings,
 *     migrations: 'generated/migrations',
 *     routes: { table: routes, handlers, middleware: { 'mailprovider.basic_auth': basicAuth } },
 *     commands: [SuppressionsCommand, UnsuppressCommand],
 *     jobs: [webhookJob],
 *     setup(ctx) { ctx.services.mailprovider = new Suppressions(ctx.services.db); },
 *   });
 */
export function definePlugin<const S extends SettingSpecs = SettingSpecs>(spec: PluginSpec<S>): Plugin<S> {
  return Object.freeze({ ...spec, [PLUGIN_BRAND]: true as const });
}

/** True when `value` was made by {@link definePlugin}. */
export function isPlugin(value: unknown): value is Plugin {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[PLUGIN_BRAND] === true;
}
