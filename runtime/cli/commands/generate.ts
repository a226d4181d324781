/**
 * `bindery generate [--check] [--allow-destructive]` (DESIGN.md 6; docs/cli.md).
 */
import { Command, Option } from 'clipanion';
import { BinderyCommand } from '../base-command.js';

/** `bindery generate [--check] [--allow-destructive]`: calls `generate()` of `generator/index.ts`; exit 1 on schema errors or, with `--check`, a stale `generated/`. */
export class GenerateCommand extends BinderyCommand {
  static override paths = [['generate']];
  static override usage = Command.Usage({
    category: 'Code',
    description: 'Compile schema/*.yaml into generated/.',
    details: `
      Reads every YAML file under \`schema/\`, checks it, and writes the typed code, validators, migrations and OpenAPI document into \`generated/\`. On any schema error nothing under \`generated/\` changes, each error is printed with its file, line and column, and the exit code is 1.

      With \`--check\`, nothing is written: the command prints the diff and exits 1 when \`generated/\` is stale, or prints "generated/ is up to date." and exits 0.
    `,
    examples: [
      ['Regenerate', '$0 generate'],
      ['Fail when generated/ is stale (CI)', '$0 generate --check'],
    ],
  });

  check = Option.Boolean('--check', false, { description: 'Write nothing; exit 1 and print the diff when generated/ is stale.' });
  allowDestructive = Option.Boolean('--allow-destructive', false, { description: 'Allow migrations that drop tables or columns.' });

  protected async run(): Promise<number> {
    const { generate, formatDiagnostic } = await import('../../../generator/index.js');
    const result = await generate({ root: this.root, check: this.check, allowDestructive: this.allowDestructive });
    if (!result.ok) {
      for (const d of result.diagnostics) this.err(`${formatDiagnostic(d)}\n`);
      const n = result.diagnostics.length;
      this.err(`${n} schema error${n === 1 ? '' : 's'}; nothing under generated/ changed.\n`);
      return 1;
    }
    const n = result.changed.length;
    if (this.check) {
      if (n === 0) {
        this.out('generated/ is up to date.\n');
        return 0;
      }
      this.out(result.diff.endsWith('\n') ? result.diff : `${result.diff}\n`);
      this.err(`generated/ is stale: ${n} file${n === 1 ? '' : 's'} would change (${result.changed.join(', ')}). Run "bindery generate".\n`);
      return 1;
    }
    this.out(n === 0 ? 'generated/ is up to date.\n' : `Generated ${n} file${n === 1 ? '' : 's'}: ${result.changed.join(', ')}\n`);
    return 0;
  }
}
