/** The `bindery` CLI (docs/cli.md): the base classes of app and plugin commands. */
export { BinderyCommand } from '../app/base-command.js';
export { AppCommand } from '../app/app-command.js';
export type { BinderyContext } from '../app/define-app.js';
