/**
 * `bindery serve` (docs/cli.md).
 */
import { Command, Option } from 'clipanion';
import { BinderyCommand } from '../../app/base-command.js';
import { DEFAULT_APP_MODULE, loadApp } from '../../app/load-app.js';
import { startInProcessWorker } from '../in-process-worker.js';

/** `bindery serve [--worker] [--app <file>]`: `startApp` without migrating (and, with `--worker`, the app's worker in the same process); resolves (exit 0) after a graceful shutdown. */
export class ServeCommand extends BinderyCommand {
  static override paths = [['serve']];
  static override usage = Command.Usage({
    category: 'Run',
    description: 'Serve the app over HTTP until SIGINT or SIGTERM.',
    details: `
      Loads the settings, opens the database (\`DATABASE_URL\`, or the embedded PostgreSQL), and listens on \`HTTP_ADDR\`. Pending migrations are reported, not applied (\`GET /health/ready\` answers not ready until \`bindery migrate\` ran). On SIGINT or SIGTERM, in-flight requests finish, then the database closes and the command exits 0.

      With \`--worker\`, the app's jobs, scheduled tasks and asynchronous listeners also run in this process (what \`bindery worker\` runs on its own), for small deployments; shutdown lets running jobs finish too. Needs \`jobs()\` in the setup list.
    `,
  });

  app = Option.String('--app', DEFAULT_APP_MODULE, { description: 'The app module (default app/main.ts).' });
  worker = Option.Boolean('--worker', false, { description: "Also run the app's jobs in this process (see bindery worker)." });

  protected async run(): Promise<number> {
    const env = await this.env();
    const app = await loadApp(this.root, this.app);
    const { startApp } = await import('../../app/start-app.js');
    const running = await startApp(app, { env, out: this.out });
    if (this.worker) await startInProcessWorker(running, this.out, 'bindery serve --worker', true);
    await running.closed;
    return 0;
  }
}
