/**
 * The `bindery` command line (docs/cli.md). `bin/bindery.mjs`
 * registers tsx (unless {@link answersWithoutApp}) and calls {@link main}.
 */
import { Cli, type CommandClass } from 'clipanion';
import { closest } from '../support/closest.js';
import { BinderyCli, withPlaceholders } from './bindery-cli.js';
import type { BinderyContext } from '../app/define-app.js';
import { registeredCommands } from './registry.js';
import { appModuleOf, loadAppCommands, withoutAppOption } from './app-commands.js';
import { formatCliError } from '../app/format-error.js';
import { binderyVersion } from '../support/package-root.js';
import { appFingerprint, type HelpCache, type HelpText, readHelpCache, writeHelpCache } from './help-cache.js';

const pkg = { version: binderyVersion() };

/** What the full help adds when the app's commands are not known without loading it. */
function appCommandsHint(appModule: string): string {
  return `The app's own commands (its setup steps' and plugins', e.g. audit:prune) are listed here once a command has loaded the app; \`bindery --help --app ${appModule}\` loads it now.\n\n`;
}

function newCli(commands: readonly CommandClass<BinderyContext>[], colors: boolean): Cli<BinderyContext> {
  const cli = new BinderyCli({ binaryLabel: 'bindery', binaryName: 'bindery', binaryVersion: pkg.version, enableColors: colors });
  for (const command of commands) cli.register(command);
  return cli;
}

/** The command names (`generate`, `migrate`…) of `commands` (default: the core's), first words of their paths. */
function coreNames(commands: readonly CommandClass<BinderyContext>[] = registeredCommands()): Set<string> {
  const known = new Set<string>();
  for (const command of commands) for (const path of command.paths ?? []) if (path[0] !== undefined) known.add(path[0]);
  return known;
}

/**
 * The commands a mistyped `name` most likely meant: the closest by edit
 * distance (at most two edits), else those it starts (`plugins` →
 * `plugins:env`, `plugins:list`); none when nothing is near.
 */
function nearestCommands(name: string, names: Iterable<string>): string[] {
  const candidates = [...names].filter((n) => !n.startsWith('-')).sort();
  const near = closest(name, candidates);
  if (near !== undefined) return [near];
  return name.length < 2 ? [] : candidates.filter((n) => n.startsWith(name));
}

/** The message for a command line whose first word names no command. */
function commandNotFound(name: string, names: Iterable<string>, appError: unknown): string {
  const near = nearestCommands(name, names);
  const hint =
    near.length === 0
      ? ''
      : ` Did you mean ${near
          .map((n) => `\`bindery ${n}\``)
          .join(near.length === 2 ? ' or ' : ', ')
          .replace(/, ([^,]*)$/, ', or $1')}?`;
  const app = appError === undefined ? '' : `The app's own commands could not be loaded:\n${formatCliError(appError, false)}`;
  return `Command not found: "${name}" is not a bindery command.${hint}\n${app}\`bindery --help\` lists the commands.\n`;
}

/** The arguments before a `--`, where clipanion looks for `-h`/`--help`. */
function asksHelp(argv: readonly string[]): boolean {
  for (const arg of argv) {
    if (arg === '--') return false;
    if (arg === '-h' || arg === '--help') return true;
  }
  return false;
}

const hasAppOption = (argv: readonly string[]) => argv.some((a) => a === '--app' || a.startsWith('--app='));

/** The leading words of `argv` (its command path as typed), joined by a space. */
function typedPaths(argv: readonly string[]): string[] {
  const words: string[] = [];
  for (const arg of argv) {
    if (arg.startsWith('-')) break;
    words.push(arg);
  }
  return words.map((_, i) => words.slice(0, i + 1).join(' '));
}

/** The cached help of an app command named by a help line, when the cache is fresh. */
function cachedCommandHelp(argv: readonly string[], cwd: string): HelpText | undefined {
  const cache = readHelpCache(cwd, appFingerprint(cwd, appModuleOf(argv), pkg.version));
  if (cache === undefined) return undefined;
  const paths = typedPaths(argv).reverse();
  for (const path of paths) if (cache.commands[path] !== undefined) return cache.commands[path];
  return undefined;
}

/**
 * Whether {@link main} answers this command line without loading the app
 * (so `bin/bindery.mjs` need not register tsx): the full help (without
 * `--app`), the version, a core command's `--help`, an app command's
 * `--help` while the cached help is fresh (docs/cli.md "Help without loading the app"),
 * and `generate`, which reads only the schema and `package.json`.
 *
 * @param argv arguments after the program name.
 * @param cwd the project root.
 */
export function answersWithoutApp(argv: readonly string[], cwd: string): boolean {
  const first = argv[0];
  if (first === undefined || first === '-h' || first === '--help') return !hasAppOption(argv);
  if (first === '-v' || first === '--version' || first === 'generate') return true;
  if (!asksHelp(argv)) return false;
  if (coreNames().has(first)) return true;
  return cachedCommandHelp(argv, cwd) !== undefined;
}

/** Render and keep the help of the core and app commands (after the app's commands were loaded). */
function keepHelp(ctx: BinderyContext, argv: readonly string[], app: readonly CommandClass<BinderyContext>[]): void {
  const appModule = appModuleOf(argv);
  const all = [...registeredCommands(), ...app];
  const render = (colored: boolean) => {
    const cli = newCli(all, colored);
    const commands: Record<string, string> = {};
    for (const command of app)
      for (const path of command.paths ?? []) commands[path.join(' ')] = cli.usage(command, { colored, detailed: true });
    return { full: cli.usage(null, { colored }), commands };
  };
  const plain = render(false);
  const colored = render(true);
  const commands: Record<string, HelpText> = {};
  for (const path of Object.keys(plain.commands)) commands[path] = { plain: plain.commands[path]!, colored: colored.commands[path]! };
  const cache: HelpCache = {
    fingerprint: appFingerprint(ctx.cwd, appModule, pkg.version),
    full: { plain: plain.full, colored: colored.full },
    commands,
  };
  writeHelpCache(ctx.cwd, cache);
}

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
  const cli = newCli(registeredCommands(), colors);
  const known = coreNames();
  const first = argv[0];
  const wantsHelp = first === undefined || first === '--help' || first === '-h';
  // The full help without `--app`: the core commands, and the app's from
  // the cache when it is fresh — never loading the app, so it prints at once.
  if (wantsHelp && !hasAppOption(argv)) {
    const cache = readHelpCache(ctx.cwd, appFingerprint(ctx.cwd, appModuleOf(argv), pkg.version));
    const text =
      cache !== undefined
        ? cache.full[colors ? 'colored' : 'plain']
        : `${cli.usage(null, { colored: colors })}${appCommandsHint(appModuleOf(argv))}`;
    (first === undefined ? ctx.stderr : ctx.stdout).write(text);
    return first === undefined ? 2 : 0;
  }
  // The app's own commands (and its setup steps' and plugins') are found by
  // loading the app module — only when the line asks for one the core does
  // not know, or for the full help with `--app`, so `generate` works even
  // when the app does not load.
  if (wantsHelp || (!first.startsWith('-') && !known.has(first))) {
    const cached = wantsHelp || !asksHelp(argv) ? undefined : cachedCommandHelp(argv, ctx.cwd);
    if (cached !== undefined) {
      ctx.stdout.write(cached[colors ? 'colored' : 'plain']);
      return 0;
    }
    let app: CommandClass<BinderyContext>[] = [];
    let appError: unknown;
    try {
      app = await loadAppCommands(ctx, argv);
      for (const command of app) cli.register(command);
      keepHelp(ctx, argv, app);
    } catch (error) {
      appError = error;
    }
    if (!wantsHelp && !coreNames(app).has(first)) {
      ctx.stderr.write(commandNotFound(first, new Set([...known, ...coreNames(app)]), appError));
      return 2;
    }
  }
  // `--app` only chose where the commands listed by the full help come from.
  if (wantsHelp) argv = withoutAppOption(argv);
  let command: ReturnType<typeof cli.process>;
  try {
    command = cli.process([...argv], ctx);
  } catch (error) {
    // clipanion lists the candidate command lines with `#0` for option values.
    ctx.stderr.write(withPlaceholders(cli.error(error)));
    return 2;
  }
  return cli.run(command, ctx);
}
