/**
 * The context every bindery command runs with (clipanion's base context plus the project root).
 */
import type { BaseContext } from 'clipanion';
import type { App } from '../app/define-app.js';

/** Clipanion's context (streams, environment, colours) plus the project root. */
export interface BinderyContext extends BaseContext {
  /** The project root: the working directory the CLI was started in. */
  readonly cwd: string;
  /** The app module, when the CLI loaded it to find the app's own commands. */
  app?: App;
}
