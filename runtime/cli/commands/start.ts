/**
 * `bindery start`: what `npm start` runs (docs/cli.md).
 */
import { Command, Option } from 'clipanion';
import { BinderyCommand } from '../../app/base-command.js';
import { migrationsApplied } from '../migrations-applied.js';
import { ensureEnvFile } from '../env-setup.js';
import { DEFAULT_APP_MODULE, loadApp, runsBuild } from '../../app/load-app.js';
import { startInProcessWorker } from '../in-process-worker.js';
import { needDevTool } from '../../support/dev-tools.js';

/** `bindery start [--app <file>]` (`npm start`): `.env` if missing, regenerate if stale, migrate, serve — one embedded PostgreSQL start. */
export class StartCommand extends BinderyCommand {
  static override paths = [['start']];
  static override usage = Command.Usage({
    category: 'Run',
    description: 'Set up what is missing, then serve: .env, generate, migrate, serve.',
    details: `
      1. Creates \`.env\` when missing (from \`.env.example\`, or the documented defaults) with a fresh \`APP_KEY\`, and says so.
      2. Regenerates \`generated/\` when it is stale (schema errors stop here, exit 1).
      3. Applies pending migrations.
      4. Serves like \`bindery serve --worker\`: when the app has \`jobs()\`, its jobs, scheduled tasks and asynchronous listeners run in the same process (\`--no-worker\` leaves them to \`bindery worker\`).

      The embedded PostgreSQL (when \`DATABASE_URL\` is unset) is started once for steps 3 and 4.

      Under \`NODE_ENV=production\` steps 1 and 2 are skipped: the compiled app in \`build/\` runs (\`bindery build\`).
    `,
  });

  app = Option.String('--app', DEFAULT_APP_MODULE, { description: 'The app module (default app/main.ts).' });
  worker = Option.Boolean('--worker', true, {
    description: "Also run the app's jobs in this process when it has jobs() (default; --no-worker to leave them to bindery worker).",
  });

  protected async run(): Promise<number> {
    if (!runsBuild()) {
      const prepared = await this.prepareSources();
      if (prepared !== 0) return prepared;
    }
    const env = await this.env();
    const app = await loadApp(this.root, this.app);
    const { startApp } = await import('../../app/start-app.js');
    const running = await startApp(app, { env, migrate: true, out: this.out });
    await migrationsApplied(this.root);
    // One command runs everything in development: the worker too, when the app has jobs().
    if (this.worker) await startInProcessWorker(running, this.out, 'bindery start', false);
    await running.closed;
    return 0;
  }

  /** Steps 1 and 2 (development): `.env` when missing, `generated/` when stale; returns 1 on schema errors. */
  private async prepareSources(): Promise<number> {
    const created = await ensureEnvFile(this.root);
    if (created) {
      const source = created.from === '.env.example' ? 'copied from .env.example' : 'every setting at its default';
      this.out(`Created .env (${source}) with fresh development values for ${created.generated.join(', ') || 'nothing'}.\n`);
    }
    needDevTool('ts-morph', { task: 'bindery start' });
    const { generate, formatDiagnostic } = await import('../../../generator/index.js');
    const check = await generate({ root: this.root, check: true });
    if (check.ok && check.changed.length > 0) {
      this.out(`generated/ is stale (${check.changed.length} file${check.changed.length === 1 ? '' : 's'}); regenerating … `);
      const result = await generate({ root: this.root });
      if (result.ok) this.out('done\n');
      else this.out('failed\n');
      if (!result.ok) return this.schemaErrors(result.diagnostics.map(formatDiagnostic));
    } else if (!check.ok) {
      return this.schemaErrors(check.diagnostics.map(formatDiagnostic));
    }
    return 0;
  }

  private schemaErrors(lines: string[]): number {
    for (const l of lines) this.err(`${l}\n`);
    this.err(
      `${lines.length} schema error${lines.length === 1 ? '' : 's'}; nothing under generated/ changed. Fix them and run "npm start" again.\n`,
    );
    return 1;
  }
}
