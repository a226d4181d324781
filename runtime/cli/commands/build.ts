/**
 * `bindery build` (docs/cli.md; docs/deploy.md#the-production-build).
 */
import { Command, Option } from 'clipanion';
import { BinderyCommand } from '../../app/base-command.js';
import { DEFAULT_APP_MODULE } from '../../app/load-app.js';
import { BUILD_DIR, buildProject } from '../../app/build-project.js';

/** `bindery build [--entry <file> …] [--out-dir <dir>] [--declaration] [--copy <dir> …]`: compile the project to JavaScript (exit 1 on type errors). */
export class BuildCommand extends BinderyCommand {
  static override paths = [['build']];
  static override usage = Command.Usage({
    category: 'Project',
    description: 'Compile the app to JavaScript for production (no tsx at run time).',
    details: `
      Compiles the app module (\`app/main.ts\`) and everything it imports (handlers, \`generated/\`, …) with tsc into \`build/\`, keeping the project's layout, and copies the other files of those folders (views, assets, migrations, \`generated/openapi.json\`) next to them. A type error, or a compiler that is missing (a production install prunes TypeScript) or cannot start, fails the build (exit 1) and leaves the previous build as it was: the new one is written to a staging folder next to \`build/\` and moved in only when it succeeded.

      Under \`NODE_ENV=production\`, \`bindery serve\`, \`worker\`, \`migrate\` and \`start\` run \`build/\` with plain Node and bindery's compiled JavaScript, without tsx; they refuse to start when the build is missing, or when the sources next to it changed since it was made.

      A plugin package builds its own entries into its package folder: \`bindery build --entry src/index.ts --out-dir dist --declaration\`.
    `,
    examples: [
      ['Build the app', '$0 build'],
      ['Build a plugin package', '$0 build --entry src/index.ts --out-dir dist --declaration'],
    ],
  });

  entries = Option.Array('--entry', { description: 'An entry module to compile (repeatable; default app/main.ts).' });
  outDir = Option.String('--out-dir', BUILD_DIR, { description: 'The output folder (default build; the app commands run build/).' });
  declaration = Option.Boolean('--declaration', false, { description: 'Also write .d.ts declarations.' });
  copy = Option.Array('--copy', { description: 'Another folder whose non-TypeScript files are copied (repeatable).' });

  protected async run(): Promise<number> {
    const result = await buildProject({
      root: this.root,
      entries: this.entries ?? [DEFAULT_APP_MODULE],
      outDir: this.outDir,
      declaration: this.declaration,
      copy: this.copy ?? [],
    });
    this.out(
      `Built ${this.outDir}/ in ${(result.ms / 1000).toFixed(1)} s: ${result.compiled.length} module${result.compiled.length === 1 ? '' : 's'} compiled, ${result.copied.length} file${result.copied.length === 1 ? '' : 's'} copied.\n`,
    );
    return 0;
  }
}
