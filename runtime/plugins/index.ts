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
  type Plugin,
  type PluginRouteOptions,
  type PluginRoutes,
  type PluginSetupContext,
  type PluginSpec,
} from './define-plugin.js';
export { plugins, type PluginsOptions } from './plugin-step.js';
export { addMailSuppression, deliverableRecipients, normalizeEmail, type MailSuppression } from '../mail/mail-suppression.js';
export { formatTable } from '../support/format-table.js';
