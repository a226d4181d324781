/**
 * The `bindery` command line (DESIGN.md 6; docs/cli.md). `bin/bindery.mjs`
 * registers tsx and calls {@link main}.
 */
import { readFileSync } from 'node:fs';
import { Cli } from 'clipanion';
import type { BinderyContext } from './context.js';
import { registeredCommands } from './registry.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

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
  for (const command of registeredCommands()) cli.register(command);
  if (argv.length === 0) {
    ctx.stderr.write(cli.usage(null));
    return 2;
  }
  let command;
  try {
    command = cli.process([...argv], ctx);
  } catch (error) {
    ctx.stderr.write(cli.error(error));
    return 2;
  }
  return cli.run(command, ctx);
}
