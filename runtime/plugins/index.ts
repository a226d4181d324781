/**
 * Plugins (docs/spec.md 9; docs/plugins.md): the manifest a
 * plugin package default-exports, loading the plugin list into an app, the
 * framework version plugins declare a range of, and the services plugins
 * offer the app (the mail suppression check).
 *
 * Plugin packages import it by package name: `import { definePlugin } from 'bindery/plugins'`.
 */
export {
  definePlugin,
  isPlugin,
  PLUGIN_BRAND,
  type Plugin,
  type PluginRouteOptions,
  type PluginRoutes,
  type PluginSetupContext,
  type PluginSpec,
} from './define-plugin.js';
export { plugins, isPluginStep, PLUGIN_STEP, type PluginsOptions, type PluginStep, type PluginStepInfo } from './plugin-step.js';
export {
  checkPluginManifest,
  checkPluginName,
  checkPluginVersion,
  neededSteps,
  PLUGIN_NAME,
  pluginLabel,
  settingsPrefix,
} from './check-plugin.js';
export { FRAMEWORK_VERSION, frameworkSatisfies, isValidRange } from './framework-version.js';
export { isReservedPluginName, RESERVED_PLUGIN_NAMES } from './reserved-names.js';
export { addMailSuppression, deliverableRecipients, normalizeEmail, type MailSuppression } from '../mail/mail-suppression.js';
export { addsSummary, pluginEnvText, routesSummary } from './describe-plugin.js';
export {
  importPluginPackage,
  loadProjectPlugins,
  locatePackage,
  PLUGIN_LIST_FILE,
  readPluginPackages,
  readProjectPackage,
  type ProjectPlugin,
} from './project-plugins.js';
export {
  PluginError,
  PluginLifecycleError,
  PluginNameReservedError,
  PluginNameTakenError,
  PluginNeedsSetupError,
  PluginNotFoundError,
  PluginVersionError,
} from './errors.js';
export { formatTable } from '../support/format-table.js';
