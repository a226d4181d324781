/**
 * `bindery worker` (docs/jobs.md "Running jobs"; docs/cli.md).
 */
import { Command, Option, UsageError } from 'clipanion';
import { BinderyCommand } from '../../app/base-command.js';
import { DEFAULT_APP_MODULE, loadApp } from '../../app/load-app.js';

/** `bindery worker [--concurrency <n>] [--app <file>]`: run the app's jobs, scheduled tasks and asynchronous listeners until SIGINT or SIGTERM. */
export class WorkerCommand extends BinderyCommand {
  static override paths = [['worker']];
  static override usage = Command.Usage({
    category: 'Run',
    description: "Run the app's jobs, scheduled tasks and asynchronous listeners until SIGINT or SIGTERM.",
    details: `
      Boots the app without an HTTP server (settings, database, setup steps, plugins) and starts a graphile-worker worker with every job, scheduled task and asynchronous listener of the app and its plugins. Run as many workers as you like: each job runs once, and each scheduled minute is queued once.

      On SIGINT or SIGTERM it stops taking jobs, lets the running ones finish, then closes the database and exits 0. \`bindery serve --worker\` runs the worker inside the web process instead. Needs \`jobs()\` in the setup list.
    `,
    examples: [
      ['Run a worker', '$0 worker'],
      ['Run ten jobs at once', '$0 worker --concurrency 10'],
    ],
  });

  app = Option.String('--app', DEFAULT_APP_MODULE, { description: 'The app module (default app/main.ts).' });
  concurrency = Option.String('--concurrency', { description: 'Jobs run at once (default JOBS_CONCURRENCY).' });

  protected async run(): Promise<number> {
    const concurrency = parseConcurrency(this.concurrency);
    const env = await this.env();
    const app = await loadApp(this.root, this.app);
    const { bootApp } = await import('../../app/boot-app.js');
    const { onShutdownSignals } = await import('../../app/shutdown.js');
    const { requireJobsRuntime } = await import('../../jobs/jobs-runtime.js');
    const booted = await bootApp(app, env, this.out);
    let worker: Awaited<ReturnType<ReturnType<typeof requireJobsRuntime>['startWorker']>> | undefined;
    try {
      const runtime = requireJobsRuntime(booted.services, 'bindery worker');
      const pending = await booted.migrator.pending();
      if (pending.length > 0)
        this.out(
          `${pending.length} migration${pending.length === 1 ? ' is' : 's are'} pending; run "bindery migrate" (jobs may fail until then).\n`,
        );
      worker = await runtime.startWorker(concurrency === undefined ? {} : { concurrency });
      const tasks = runtime.taskNames();
      this.out(
        `Worker for ${app.name} running ${tasks.length} task${tasks.length === 1 ? '' : 's'}${tasks.length ? ` (${tasks.join(', ')})` : ''}; Ctrl-C stops it.\n`,
      );
    } catch (error) {
      await booted.close();
      throw error;
    }
    const started = worker;
    await new Promise<void>((resolve, reject) => {
      const remove = onShutdownSignals((signal) => {
        this.out(`Received ${signal}: stopping the worker, letting running jobs finish …\n`);
        resolve();
      }, this.out);
      started.done.then(
        () => {
          remove();
          resolve();
        },
        (error: unknown) => {
          remove();
          reject(error);
        },
      );
    }).finally(async () => {
      await started.stop();
      await booted.close();
    });
    this.out('Stopped.\n');
    return 0;
  }
}

/** `--concurrency`: a whole number from 1 to 100, or undefined. @throws {UsageError} */
export function parseConcurrency(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > 100) {
    throw new UsageError(`--concurrency must be a whole number from 1 to 100, got "${text}".`);
  }
  return n;
}
