/**
 * `bindery add <package>[@version]` (docs/spec.md 9; docs/plugins.md "Adding a plugin").
 */
import { Command, Option } from 'clipanion';
import { BinderyCommand } from '../../app/base-command.js';

/** `bindery add <package>[@version]`: install a plugin, list it, build, type-check, append its settings to .env.example — or change nothing. */
export class AddCommand extends BinderyCommand {
  static override paths = [['add']];
  static override usage = Command.Usage({
    category: 'Plugins',
    description: 'Add a plugin: install it, list it, build, type-check, append its settings to .env.example.',
    details: `
      Takes an npm package (\`name\`, \`name@1.2.0\`; the latest without a version), a folder or a tarball made by \`npm pack\`.

      Before changing anything it reads the package's \`peerDependencies.bindery\`, the framework versions it supports: a plugin made for an older bindery is refused; one needing a newer bindery upgrades the framework (\`npm install bindery@"<range>"\`) and says so — unless the framework cannot be upgraded here (this project is bindery itself, or bindery is installed from a folder), then it is refused. A package already listed is refused.

      Then: \`npm install\`, adds it to \`bindery.plugins\` in package.json, regenerates \`generated/plugins.ts\`, loads it and checks its manifest, runs \`tsc --noEmit\`, and appends its settings (\`bindery plugins:env <plugin>\`) to \`.env.example\`. If any step fails, every file it changed is restored and the command exits 1.
    `,
    examples: [
      ['From the registry', '$0 add @acme/bindery-greeter@1.2.0'],
      ['From a tarball', '$0 add ./acme-bindery-greeter-1.2.0.tgz'],
    ],
  });

  spec = Option.String({ name: 'package' });
  noTypeCheck = Option.Boolean('--no-type-check', false, { description: 'Skip tsc --noEmit.' });

  protected async run(): Promise<number> {
    const { addPlugin } = await import('../../plugins/lifecycle/add-plugin.js');
    await addPlugin({ root: this.root, spec: this.spec, out: this.out, skipTypeCheck: this.noTypeCheck });
    return 0;
  }
}
