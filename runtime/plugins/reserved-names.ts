/**
 * Names a plugin may not take (docs/spec.md 9): the framework's own
 * concepts, their settings prefixes (`SESSION_…`, `JOBS_…`), CLI command
 * namespaces (`audit:prune`) and route prefixes (`/health`).
 */

/** Reserved plugin names, sorted. */
export const RESERVED_PLUGIN_NAMES: readonly string[] = Object.freeze([
  'add',
  'admin',
  'api',
  'app',
  'assets',
  'audit',
  'auth',
  'bindery',
  'cache',
  'cli',
  'config',
  'context',
  'cookie',
  'core',
  'cron',
  'csrf',
  'database',
  'db',
  'env',
  'events',
  'framework',
  'generate',
  'generated',
  'health',
  'http',
  'job',
  'jobs',
  'key',
  'listener',
  'listeners',
  'log',
  'mail',
  'mailer',
  'migrate',
  'migrations',
  'plugin',
  'plugins',
  'queue',
  'remove',
  'routes',
  'runtime',
  'schedule',
  'schema',
  'serve',
  'session',
  'sessions',
  'settings',
  'start',
  'static',
  'system',
  'test',
  'user',
  'users',
  'views',
  'worker',
]);

/** True when `name` is reserved for the framework. */
export function isReservedPluginName(name: string): boolean {
  return RESERVED_PLUGIN_NAMES.includes(name);
}
