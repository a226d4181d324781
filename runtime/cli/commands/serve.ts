/**
 * `bindery serve` (DESIGN.md 6; docs/cli.md).
 */
import { Command, Option } from 'clipanion';
import { BinderyCommand } from '../base-command.js';
import { DEFAULT_APP_MODULE, loadApp } from '../load-app.js';

/** `bindery serve [--app <file>]`: `startApp` without migrating; resolves (exit 0) after a graceful shutdown. */
export class ServeCommand extends BinderyCommand {
  static override paths = [['serve']];
  static override usage = Command.Usage({
    category: 'Run',
    description: 'Serve the app over HTTP until SIGINT or SIGTERM.',
    details: `
      Loads the settings, opens the database (\`DATABASE_URL\`, or the embedded PostgreSQL), and listens on \`HTTP_ADDR\`. Pending migrations are reported, not applied (\`GET /health/ready\` answers not ready until \`bindery migrate\` ran). On SIGINT or SIGTERM, in-flight requests finish, then the database closes and the command exits 0.
    `,
  });

  app = Option.String('--app', DEFAULT_APP_MODULE, { description: 'The app module (default app/main.ts).' });

  protected async run(): Promise<number> {
    const env = await this.env();
    const app = await loadApp(this.root, this.app);
    const { startApp } = await import('../../app/start-app.js');
    const running = await startApp(app, { env, out: this.out });
    await running.closed;
    return 0;
  }
}
