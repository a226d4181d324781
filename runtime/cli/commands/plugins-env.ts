/**
 * `bindery plugins:env [plugin]` (docs/spec.md 9; docs/plugins.md "Commands").
 */
import { Command, Option } from 'clipanion';
import { BinderyCommand } from '../../app/base-command.js';

/** `bindery plugins:env [plugin]`: every setting of the plugins (or one) as `NAME=` lines under `# <plugin>`; no boot. */
export class PluginsEnvCommand extends BinderyCommand {
  static override paths = [['plugins:env']];
  static override usage = Command.Usage({
    category: 'Plugins',
    description: "Print the plugins' settings as NAME= lines, ready for .env.",
    details: `
      For each plugin of the plugin list (or only the one named, by plugin or package name): a \`# <plugin>\` line, then for every setting a comment saying whether it is required, its default, what it does and the values allowed, then \`NAME=\`. The app is not booted. An unknown plugin exits 1.
    `,
    examples: [
      ['All plugins', '$0 plugins:env'],
      ['One plugin', '$0 plugins:env mailprovider'],
    ],
  });

  plugin = Option.String({ name: 'plugin', required: false });

  protected async run(): Promise<number> {
    const { pluginsEnvText } = await import('../../plugins/lifecycle/list-plugins.js');
    this.out(await pluginsEnvText(this.root, this.plugin));
    return 0;
  }
}
