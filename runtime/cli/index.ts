/** The `bindery` CLI (docs/cli.md). */
export { main } from './main.js';
export { coreCommands, registerCommand, registeredCommands } from './registry.js';
export { BinderyCommand } from './base-command.js';
export { AppCommand } from './app-command.js';
export type { BinderyContext } from './context.js';
export { DEFAULT_APP_MODULE, loadApp } from './load-app.js';
export { ensureEnvFile } from './env-setup.js';
export { formatCliError } from './format-error.js';
export { formatMigrationStatus } from './commands/migrate.js';
