/**
 * The clipanion `Cli` bindery runs (docs/cli.md "Option values in the help"):
 * its usage lines name what an option takes (`--app <file>`,
 * `--concurrency <n>`) where clipanion prints `#0`.
 */
import { Cli, type CommandClass } from 'clipanion';
import type { BinderyContext } from '../app/define-app.js';

/**
 * The placeholder of a value-taking option by its long name, for the options
 * of bindery's own commands and those most setup steps share. An option not
 * listed here shows `<value>`, unless its command names it in a static
 * `placeholders` member (see {@link CommandPlaceholders}).
 */
export const OPTION_PLACEHOLDERS: Readonly<Record<string, string>> = {
  '--app': '<file>',
  '--bindery': '<spec>',
  '--concurrency': '<n>',
  '--copy': '<dir>',
  '--entry': '<file>',
  '--limit': '<n>',
  '--name': '<name>',
  '--out-dir': '<dir>',
  '--to': '<address>',
};

/**
 * What a command class may declare to name its own options' values:
 * `static placeholders = { '--since': '<date>' }`.
 */
export interface CommandPlaceholders {
  readonly placeholders?: Readonly<Record<string, string>>;
}

/** `-x,--name #0 #1` as clipanion writes an option that takes values (names, then one `#<i>` per value). */
const OPTION_WITH_VALUES = /((?:-{1,2}[A-Za-z0-9][\w-]*,)*-{1,2}[A-Za-z0-9][\w-]*)((?: #\d+)+)/g;

/**
 * `text` with every `#<i>` after an option replaced by the option's placeholder.
 * @param own the command's own placeholders, by option name (they win over {@link OPTION_PLACEHOLDERS}).
 * @example withPlaceholders('[--app #0]') // '[--app <file>]'
 */
export function withPlaceholders(text: string, own: Readonly<Record<string, string>> = {}): string {
  return text.replace(OPTION_WITH_VALUES, (_all, names: string, values: string) => {
    const long = names.split(',');
    const placeholder = long.map((n) => own[n] ?? OPTION_PLACEHOLDERS[n]).find((p) => p !== undefined) ?? '<value>';
    const count = values.trim().split(' ').length;
    return `${names}${` ${placeholder}`.repeat(count)}`;
  });
}

/** clipanion's `Cli` with {@link withPlaceholders} applied to every usage line and option definition it renders. */
export class BinderyCli extends Cli<BinderyContext> {
  protected override getUsageByIndex(n: number, opts?: { detailed?: boolean; inlineOptions?: boolean }) {
    const usage = super.getUsageByIndex(n, opts);
    const own = this.commandAt(n)?.placeholders ?? {};
    return {
      usage: withPlaceholders(usage.usage, own),
      options: usage.options.map((option) => ({ ...option, definition: withPlaceholders(option.definition, own) })),
    };
  }

  private commandAt(n: number): (CommandClass<BinderyContext> & CommandPlaceholders) | undefined {
    for (const [command, { index }] of this.registrations) if (index === n) return command;
    return undefined;
  }
}
