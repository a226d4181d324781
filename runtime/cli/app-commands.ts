/**
 * Finding the app's own commands: when the command line names a command
 * the core does not know, the CLI loads the app module and registers the
 * commands of the app and its setup steps (plugins included), then parses
 * the line again.
 */
import type { CommandClass } from 'clipanion';
import { appCommands } from '../app/define-app.js';
import type { BinderyContext } from '../app/define-app.js';
import { DEFAULT_APP_MODULE, loadApp } from '../app/load-app.js';

/** The `--app <file>` (or `--app=<file>`) of a command line, or the default. */
export function appModuleOf(argv: readonly string[]): string {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--app' && argv[i + 1] !== undefined) return argv[i + 1]!;
    if (arg.startsWith('--app=')) return arg.slice('--app='.length);
  }
  return DEFAULT_APP_MODULE;
}

/** `argv` without its `--app <file>` / `--app=<file>`. */
export function withoutAppOption(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--app') {
      i++;
      continue;
    }
    if (argv[i]!.startsWith('--app=')) continue;
    out.push(argv[i]!);
  }
  return out;
}

/**
 * Load the app named by `argv` (its `--app`, or app/main.ts) and return it with its commands.
 * @throws {AppDefinitionError} when the app module is missing or does not load.
 */
export async function loadAppCommands(ctx: BinderyContext, argv: readonly string[]): Promise<CommandClass<BinderyContext>[]> {
  const app = await loadApp(ctx.cwd, appModuleOf(argv));
  ctx.app = app;
  return appCommands(app);
}
