/**
 * `bindery remove <package>` (docs/spec.md 9; docs/plugins.md "Removing a plugin").
 */
import { Command, Option } from 'clipanion';
import { BinderyCommand } from '../../app/base-command.js';

/** `bindery remove <package>`: take a plugin off the list, uninstall it, rebuild; its settings and tables stay. */
export class RemoveCommand extends BinderyCommand {
  static override paths = [['remove']];
  static override usage = Command.Usage({
    category: 'Plugins',
    description: 'Remove a plugin: take it off the plugin list, uninstall it, rebuild. Its settings and tables stay.',
    details: `
      Takes the package name (or the plugin's name). Removes it from \`bindery.plugins\` in package.json, regenerates \`generated/plugins.ts\`, runs \`npm uninstall\` (not for a workspace of this project) and \`tsc --noEmit\`. If any step fails, every file it changed is restored and the command exits 1. An unknown plugin exits 1.

      Its settings stay in \`.env\`/\`.env.example\` and its tables in the database: docs/plugins.md says how to drop them with a migration of the app's own.
    `,
    examples: [['Remove', '$0 remove @acme/bindery-greeter']],
  });

  name = Option.String({ name: 'package' });
  noTypeCheck = Option.Boolean('--no-type-check', false, { description: 'Skip tsc --noEmit.' });

  protected async run(): Promise<number> {
    const { removePlugin } = await import('../../plugins/lifecycle/remove-plugin.js');
    await removePlugin({ root: this.root, name: this.name, out: this.out, skipTypeCheck: this.noTypeCheck });
    return 0;
  }
}
