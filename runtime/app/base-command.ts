/**
 * The base of every bindery command (docs/cli.md "Errors and exit codes").
 *
 * Subclasses implement `run()`. Exit codes: 0 ok, 1 error, 2 usage error
 * (clipanion's `UsageError`, or the parser rejecting the command line, see
 * `main.ts`). Errors print a readable message on stderr; stacks only with
 * `APP_DEBUG=true` (from the environment or `.env`).
 */
import { Command, UsageError } from 'clipanion';
import { loadEnvironment } from '../config/env-file.js';
import type { Env } from '../config/setting.js';
import type { BinderyContext } from './define-app.js';
import { formatCliError } from './format-error.js';

export abstract class BinderyCommand extends Command<BinderyContext> {
  private envCache: Env | undefined;

  /** The command's work; returns the exit code (default 0). */
  protected abstract run(): Promise<number | void>;

  /** Clipanion's entry point: runs {@link run} and turns errors into exit codes. */
  override async execute(): Promise<number> {
    try {
      return (await this.run()) ?? 0;
    } catch (error) {
      if (error instanceof UsageError) {
        this.context.stderr.write(`Usage error: ${error.message}\n\n${this.cli.usage(this, { detailed: false })}`);
        return 2;
      }
      const debug = /^(true|1)$/.test((this.envCache ?? this.context.env).APP_DEBUG?.trim() ?? '');
      this.context.stderr.write(formatCliError(error, debug));
      return 1;
    }
  }

  /** The project root (the working directory). */
  protected get root(): string {
    return this.context.cwd;
  }

  /** The environment: the real one over `<root>/.env` (loaded once). */
  protected async env(): Promise<Env> {
    this.envCache ??= await loadEnvironment(this.root, this.context.env);
    return this.envCache;
  }

  /** Write progress text to stdout. */
  protected out = (text: string): void => {
    this.context.stdout.write(text);
  };

  /** Write to stderr. */
  protected err = (text: string): void => {
    this.context.stderr.write(text);
  };
}
