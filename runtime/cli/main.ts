/**
 * The `bindery` command line (docs/cli.md). `bin/bindery.mjs`
 * registers tsx and calls {@link main}.
 */
import { Cli } from 'clipanion';
import type { BinderyContext } from '../app/define-app.js';
import { registeredCommands } from './registry.js';
import { loadAppCommands, withoutAppOption } from './app-commands.js';
import { formatCliError } from '../app/format-error.js';
import { binderyVersion } from '../support/package-root.js';

const pkg = { version: binderyVersion() };

/**
 * Run the CLI.
 *
 * @param argv arguments after the program name, e.g. `['generate', '--check']`.
 * @param context overrides of the streams, environment and working directory (tests).
 * @returns the exit code: 0 ok, 1 error, 2 usage error (unknown command or option, bad value, no command).
 */
export async function main(argv: readonly string[], context: Partial<BinderyContext> = {}): Promise<number> {
  const ctx: BinderyContext = { ...Cli.defaultContext, cwd: process.cwd(), ...context };
  const colors = Boolean((ctx.stdout as { isTTY?: boolean }).isTTY) && !ctx.env.NO_COLOR;
  const cli = new Cli<BinderyContext>({ binaryLabel: 'bindery', binaryName: 'bindery', binaryVersion: pkg.version, enableColors: colors });
  const known = new Set<string>();
  for (const command of registeredCommands()) {
    cli.register(command);
    for (const path of command.paths ?? []) if (path[0] !== undefined) known.add(path[0]);
  }
  // The app's own commands (and its setup steps' and plugins') are found by
  // loading the app module — only when the line asks for one the core does
  // not know, or for the full help, so `generate` works even when the app
  // does not load.
  const first = argv[0];
  const wantsHelp = first === undefined || first === '--help' || first === '-h';
  if (wantsHelp || (!first.startsWith('-') && !known.has(first))) {
    try {
      for (const command of await loadAppCommands(ctx, argv)) cli.register(command);
    } catch (error) {
      if (!wantsHelp) {
        ctx.stderr.write(
          `Command not found: "${first}" is not a bindery command, and the app's own commands could not be loaded:\n${formatCliError(error, false)}`,
        );
        return 2;
      }
    }
  }
  if (argv.length === 0) {
    ctx.stderr.write(cli.usage(null));
    return 2;
  }
  // `--app` only chose where the commands listed by the full help come from.
  if (wantsHelp) argv = withoutAppOption(argv);
  let command: ReturnType<typeof cli.process>;
  try {
    command = cli.process([...argv], ctx);
  } catch (error) {
    ctx.stderr.write(cli.error(error));
    return 2;
  }
  return cli.run(command, ctx);
}
