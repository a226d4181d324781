/**
 * `bindery generate [--check] [--allow-destructive]` (docs/cli.md).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Command, Option } from 'clipanion';
import { BinderyCommand } from '../../app/base-command.js';
import { needDevTool } from '../../support/dev-tools.js';

/** `bindery generate [--check] [--allow-destructive]`: calls `generate()` of `generator/index.ts`; exit 1 on schema errors or, with `--check`, a stale `generated/`. */
export class GenerateCommand extends BinderyCommand {
  static override paths = [['generate']];
  static override usage = Command.Usage({
    category: 'Code',
    description: 'Compile schema/*.yaml into generated/.',
    details: `
      Reads every YAML file under \`schema/\`, checks it, and writes the typed code, validators, migrations and OpenAPI document into \`generated/\`. On any schema error nothing under \`generated/\` changes, each error is printed with its file, line and column, and the exit code is 1.

      A migration that drops a table or column or narrows a type is refused unless \`--allow-destructive\` is given; then the migration starts with a comment saying what it loses, and the command prints it. \`--rebuild-snapshot\` re-derives \`generated/schema.snapshot.json\` from the migration files, for when a migration that failed at \`bindery migrate\` was removed (docs/database.md "When a migration fails").

      With \`--check\`, nothing is written: the command prints the diff and exits 1 when \`generated/\` is stale, or prints "generated/ is up to date." and exits 0.
    `,
    examples: [
      ['Regenerate', '$0 generate'],
      ['Fail when generated/ is stale (CI)', '$0 generate --check'],
    ],
  });

  check = Option.Boolean('--check', false, { description: 'Write nothing; exit 1 and print the diff when generated/ is stale.' });
  allowDestructive = Option.Boolean('--allow-destructive', false, {
    description: 'Allow migrations that drop tables or columns or narrow a column type (the migration says what it loses).',
  });
  rebuildSnapshot = Option.Boolean('--rebuild-snapshot', false, {
    description:
      'Re-derive generated/schema.snapshot.json from the migration files (after removing a migration that failed; see docs/database.md).',
  });

  protected async run(): Promise<number> {
    needDevTool('ts-morph', { task: 'bindery generate' });
    // A one-shot process: a young generation that stays small keeps the peak memory of a large run down.
    (await import('../../../generator/heap.js')).boundYoungGeneration();
    const { generate, formatDiagnostic } = await import('../../../generator/index.js');
    const result = await generate({
      root: this.root,
      check: this.check,
      allowDestructive: this.allowDestructive,
      rebuildSnapshot: this.rebuildSnapshot,
    });
    for (const w of result.warnings) this.err(`warning: ${formatDiagnostic(w)}\n`);
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
      this.err(
        `generated/ is stale: ${n} file${n === 1 ? '' : 's'} would change (${result.changed.join(', ')}). Run "bindery generate".\n`,
      );
      return 1;
    }
    this.out(n === 0 ? 'generated/ is up to date.\n' : `Generated ${n} file${n === 1 ? '' : 's'}: ${result.changed.join(', ')}\n`);
    for (const warning of await destructiveWarnings(this.root, result.changed)) this.err(warning);
    return 0;
  }
}

/** The "what this migration loses" comment of each written migration, as warning lines for the terminal. */
async function destructiveWarnings(root: string, changed: readonly string[]): Promise<string[]> {
  const { LOSS_COMMENT } = await import('../../../generator/emit/migrations/emit-migrations.js');
  const warnings: string[] = [];
  for (const path of changed.filter((p) => /\/migrations\/[^/]+\.sql$/.test(p))) {
    const text = await readFile(join(root, path), 'utf8').catch(() => '');
    const lines = text.split('\n');
    const start = lines.indexOf(LOSS_COMMENT);
    if (start === -1) continue;
    const items = lines
      .slice(start + 1)
      .filter((_l, i, all) => all.slice(0, i + 1).every((x) => x.startsWith('--   - ')))
      .map((l) => `  ${l.slice(5)}\n`);
    warnings.push(`Warning: ${path} is destructive; it\n${items.join('')}`);
  }
  return warnings;
}
