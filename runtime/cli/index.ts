/** The `bindery` CLI (docs/cli.md). */
export { main } from './main.js';
export { coreCommands, registerCommand, registeredCommands } from './registry.js';
export { BinderyCommand } from '../app/base-command.js';
export { AppCommand } from '../app/app-command.js';
export type { BinderyContext } from '../app/define-app.js';
export { DEFAULT_APP_MODULE, loadApp } from '../app/load-app.js';
export { ensureEnvFile } from './env-setup.js';
export { formatCliError } from '../app/format-error.js';
export { formatMigrationStatus } from './commands/migrate.js';
