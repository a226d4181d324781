/**
 * The context every bindery command runs with (clipanion's base context plus the project root).
 */
import type { BaseContext } from 'clipanion';

/** Clipanion's context (streams, environment, colours) plus the project root. */
export interface BinderyContext extends BaseContext {
  /** The project root: the working directory the CLI was started in. */
  readonly cwd: string;
}
