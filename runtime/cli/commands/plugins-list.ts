/**
 * `bindery plugins:list` (docs/spec.md 9; docs/plugins.md "Commands").
 */
import { Command, Option } from 'clipanion';
import { BinderyCommand } from '../../app/base-command.js';
import { DEFAULT_APP_MODULE } from '../../app/load-app.js';

/** `bindery plugins:list`: the plugin list, with each plugin's framework range, routes and what it adds; works even when a plugin does not load. */
export class PluginsListCommand extends BinderyCommand {
  static override paths = [['plugins:list']];
  static override usage = Command.Usage({
    category: 'Plugins',
    description: "List the app's plugins: framework range, routes, what each adds.",
    details: `
      One row per entry of the plugin list (\`bindery.plugins\` in package.json, generated into \`generated/plugins.ts\`), in load order. Columns: PLUGIN (name and version), REQUIRES (the bindery versions it supports), ROUTES (method and path, as mounted), ADDS (settings, migrations, commands, jobs, scheduled tasks, events, listeners, boot work).

      A plugin that would not load — its package missing, its manifest invalid, its framework range not met, its settings missing or invalid, a setup step it needs absent — is marked "(not loaded)" and the reason is printed below the table; the listing still runs and exits 0. Prints "No plugins." when the list is empty. The app is not booted (no database).
    `,
  });

  app = Option.String('--app', DEFAULT_APP_MODULE, { description: 'The app module (default app/main.ts), for mounts and setup steps.' });

  protected async run(): Promise<number> {
    const { listProjectPlugins } = await import('../../plugins/lifecycle/list-plugins.js');
    const report = await listProjectPlugins(this.root, this.app, await this.env());
    this.out(report);
    return 0;
  }
}
