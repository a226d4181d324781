/**
 * The base of commands that work with the app's data: `bindery prune`,
 * `audit:prune`, a plugin's `<name>:…` (docs/cli.md "Adding commands").
 *
 * `boot()` loads the app module, its settings and database, and runs its
 * setup steps (no HTTP server), printing its notices on stderr so stdout
 * carries only the command's output; `run()` executes inside an execution context
 * whose via is `{ kind: 'command', name: '<command path>' }`, so the audit
 * log attributes the command's writes to `system` via the command's name.
 */
import { Option } from 'clipanion';
import type { BootedApp } from './boot-app.js';
import { runInContext } from '../context/execution-context.js';
import { BinderyCommand } from './base-command.js';
import { DEFAULT_APP_MODULE, loadApp } from './load-app.js';

export abstract class AppCommand extends BinderyCommand {
  app = Option.String('--app', DEFAULT_APP_MODULE, { description: 'The app module (default app/main.ts).' });

  #booted: BootedApp | undefined;

  /** The command's name as typed, e.g. `audit:prune` (its first path). */
  protected get commandName(): string {
    return (this.constructor as { paths?: string[][] }).paths?.[0]?.join(' ') ?? 'command';
  }

  /**
   * The booted app (loaded once; closed after `run()` returns).
   * @throws settings, database and setup errors (printed by the base class, exit 1).
   */
  protected async boot(): Promise<BootedApp> {
    if (this.#booted) return this.#booted;
    const app = this.context.app ?? (await loadApp(this.root, this.app));
    const { bootApp } = await import('./boot-app.js');
    // Boot notices ("Using the embedded PostgreSQL …") go to stderr: stdout is
    // the command's own output, which may be JSON for another program.
    this.#booted = await bootApp(app, await this.env(), this.err);
    return this.#booted;
  }

  override async execute(): Promise<number> {
    try {
      return await runInContext({ via: { kind: 'command', name: this.commandName } }, () => super.execute());
    } finally {
      await this.#booted?.close();
    }
  }
}
