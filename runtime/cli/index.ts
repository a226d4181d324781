export { BinderyCommand } from '../app/base-command.js';
export { AppCommand } from '../app/app-command.js';
export type { BinderyContext } from '../app/define-app.js';
