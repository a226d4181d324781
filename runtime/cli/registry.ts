/**
 * The command registry (docs/cli.md "Adding commands").
 *
 * The core commands are listed here; later concepts (worker, audit:prune,
 * plugins:list, add/remove) append theirs to {@link coreCommands}' list with
 * {@link registerCommand}, and plugin commands are added the same way when
 * the CLI starts. Every command extends `BinderyCommand`.
 */
import { Builtins, type CommandClass } from 'clipanion';
import { GenerateCommand } from './commands/generate.js';
import { KeyGenerateCommand } from './commands/key-generate.js';
import { MakeResourceCommand } from './commands/make-resource.js';
import { MigrateCommand } from './commands/migrate.js';
import { DbSeedCommand } from './commands/db-seed.js';
import { NewCommand } from './commands/new.js';
import { BuildCommand } from './commands/build.js';
import { ServeCommand } from './commands/serve.js';
import { StartCommand } from './commands/start.js';
import { DevCommand } from './commands/dev.js';
import { WorkerCommand } from './commands/worker.js';
import { AddCommand } from './commands/add.js';
import { RemoveCommand } from './commands/remove.js';
import { PluginsEnvCommand } from './commands/plugins-env.js';
import { PluginsListCommand } from './commands/plugins-list.js';
import { RoutesCommand } from './commands/routes.js';
import type { BinderyContext } from '../app/define-app.js';

const registered: CommandClass<BinderyContext>[] = [
  GenerateCommand,
  MigrateCommand,
  DbSeedCommand,
  ServeCommand,
  StartCommand,
  DevCommand,
  KeyGenerateCommand,
  MakeResourceCommand,
  RoutesCommand,
  WorkerCommand,
  PluginsListCommand,
  PluginsEnvCommand,
  AddCommand,
  RemoveCommand,
  NewCommand,
  BuildCommand,
  Builtins.HelpCommand,
  Builtins.VersionCommand,
];

/** The core commands. */
export const coreCommands: readonly CommandClass<BinderyContext>[] = [...registered];

/**
 * Add a command to the CLI (before `main` runs).
 * @throws {Error} when a command with the same path is already registered.
 */
export function registerCommand(command: CommandClass<BinderyContext>): void {
  const key = (c: CommandClass<BinderyContext>) => (c.paths ?? []).map((p) => p.join(' '));
  const taken = registered.flatMap(key);
  const clash = key(command).find((p) => taken.includes(p));
  if (clash !== undefined) throw new Error(`registerCommand: "bindery ${clash}" is already registered`);
  registered.push(command);
}

/** Every registered command, in registration order. */
export function registeredCommands(): readonly CommandClass<BinderyContext>[] {
  return registered;
}
