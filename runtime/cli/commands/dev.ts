/**
 * `bindery dev`: the development loop (docs/cli.md "dev — the development loop").
 *
 * The command owns the embedded PostgreSQL (when `DATABASE_URL` is unset)
 * and serves the app from a child process that it replaces when `app/`,
 * `views/`, `plugins/`, `.env` or `generated/` change; `schema/` changes are
 * regenerated in this process first. A schema error is printed with
 * file:line:column and the last good build keeps serving.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Command, Option } from 'clipanion';
import { BinderyCommand } from '../../app/base-command.js';
import { ensureEnvFile } from '../env-setup.js';
import { DEFAULT_APP_MODULE } from '../../app/load-app.js';
import { startAppProcess, type AppProcess } from '../dev/app-process.js';
import { watchTree, type ChangeBatch } from '../dev/watch-tree.js';
import { devRegenerator } from '../dev/regenerate.js';
import { appProcessEnv, startDevDatabase, withoutRepeatedLines } from '../dev/dev-database.js';
import { needDevTool } from '../../support/dev-tools.js';

/** How many changed paths a "Changed:" line names before "and N more". */
const SHOWN_PATHS = 4;

/** Where the time of a restart went, in milliseconds. */
interface LaunchTimes {
  /** Waiting for the standby to finish loading bindery (0 when it was ready). */
  readonly standbyMs: number;
  /** The new app process importing the app, applying migrations and running the setup steps (the old one still serving). */
  readonly setupMs: number;
  /** The old process releasing the port, the new one listening. */
  readonly switchMs: number;
}

/**
 * The line after a restart: the time from the change to the new build answering, and where it went,
 * e.g. `Restarted in 812 ms (regenerate 240 ms, app setup 420 ms, switch-over 30 ms)`; parts of 0 ms are left out.
 */
export function restartLine(totalMs: number, times: LaunchTimes & { readonly regenerateMs: number }): string {
  const parts = [
    ['regenerate', times.regenerateMs],
    ['waiting for the standby to load bindery', times.standbyMs],
    ['app setup', times.setupMs],
    ['switch-over', times.switchMs],
  ].filter(([, ms]) => (ms as number) > 0);
  return `Restarted in ${totalMs} ms (${parts.map(([what, ms]) => `${what} ${ms} ms`).join(', ')})`;
}

/** `bindery dev [--app <file>]`: serve, watch, regenerate, restart — until SIGINT or SIGTERM (exit 0). */
export class DevCommand extends BinderyCommand {
  static override paths = [['dev']];
  static override usage = Command.Usage({
    category: 'Run',
    description: 'Serve the app and restart it when schema/, app/ or views change.',
    details: `
      Sets up like \`bindery start\` (\`.env\` if missing, regenerate, migrate, serve with the in-process worker), then watches:

      - \`schema/\`: regenerates; new migrations are applied when the app restarts. On a schema error the diagnostics are printed with file, line and column, and the last good build keeps serving. A destructive change is refused by the generator and reported; nothing is dropped until you run \`bindery generate --allow-destructive\` yourself.
      - \`app/\`, \`views/\`, \`plugins/\`, \`.env\` and \`generated/\`: restarts the app process (the embedded PostgreSQL keeps running).

      SIGINT (Ctrl-C) or SIGTERM stops the app, then the database, and exits 0. \`bindery start\` stays the one-shot, production-like start.
    `,
  });

  app = Option.String('--app', DEFAULT_APP_MODULE, { description: 'The app module (default app/main.ts).' });
  serveChild = Option.Boolean('--serve-child', false, { hidden: true });

  protected async run(): Promise<number> {
    return this.serveChild ? this.runChild() : this.runParent();
  }

  /** The app process (docs/cli.md "dev — the development loop"): see `serveChild`. */
  private async runChild(): Promise<number> {
    const { serveChild } = await import('../dev/serve-child.js');
    await serveChild({ root: this.root, app: this.app, env: () => this.env(), out: this.out });
    process.disconnect?.();
    return 0;
  }

  private async runParent(): Promise<number> {
    const created = await ensureEnvFile(this.root);
    if (created)
      this.out(`Created .env (${created.from === '.env.example' ? 'copied from .env.example' : 'every setting at its default'}).\n`);
    needDevTool('ts-morph', { task: 'bindery dev' });
    const generator = await devRegenerator({ root: this.root, out: this.out, err: this.err });
    await generator.regenerate();
    const env = await this.env();
    const embedded = await startDevDatabase(this.root, env, this.out);
    const childEnv = await appProcessEnv(env, this.context.env);
    const spawnChild = () =>
      startAppProcess({ root: this.root, app: this.app, env: childEnv, out: (t) => this.out(withoutRepeatedLines(t)), err: this.err });
    let current: AppProcess | undefined;
    let standby: AppProcess | undefined = spawnChild();
    let url: string | undefined;
    /** The app's embedded database, once an app process opened it: later ones connect to it directly. */
    let database: { app: string; url: string } | undefined;
    /**
     * Start the next build in the warm standby while the current one keeps serving; only once it
     * is set up (app imported, migrations applied, setup steps run) does it replace the current one.
     * A build that fails to load or boot is printed and the last good one keeps serving.
     * @returns where the time went, or undefined when the new build does not serve.
     */
    const launch = async (): Promise<LaunchTimes | undefined> => {
      const t0 = Date.now();
      const next = standby ?? spawnChild();
      // The next standby starts loading bindery now, while this one sets up the app: an edit
      // soon after this one then finds it warm (or nearly so).
      standby = spawnChild();
      const wasWarm = next.warm;
      const warm = await next.standby;
      const t1 = Date.now();
      if (warm) next.go(database);
      const prepared = warm && (await next.prepared);
      const t2 = Date.now();
      if (!prepared) {
        const code = await next.exited;
        if (current?.alive)
          this.err(`The new build did not start (exit ${code}); fix the error above. Still serving the last good build: ${url}\n`);
        else this.err(`The app stopped (exit ${code}); fix the error above, dev restarts it on the next change.\n`);
        return undefined;
      }
      const old = current;
      void old?.stop();
      await old?.released;
      current = next;
      next.serve();
      const ready = await next.ready;
      const t3 = Date.now();
      if (ready === undefined) {
        this.err(`The app stopped (exit ${await next.exited}); fix the error above, dev restarts it on the next change.\n`);
        return undefined;
      }
      url = ready.url;
      if (embedded !== undefined) database = { app: ready.app, url: embedded.url(ready.app) };
      void next.exited.then((code) => {
        if (current === next && code !== 0) this.err(`The app exited (${code}); dev restarts it on the next change.\n`);
      });
      return { standbyMs: wasWarm ? 0 : t1 - t0, setupMs: t2 - t1, switchMs: t3 - t2 };
    };

    const startedAt = Date.now();
    await launch();
    const { startTypeChecker } = await import('../dev/type-check.js');
    const typeCheck = startTypeChecker({ root: this.root, out: this.out, err: this.err });
    typeCheck?.request();
    const shown = (dirs: string[]) => dirs.filter((d) => existsSync(join(this.root, d)));
    const watched = shown(['schema', 'app', 'views', 'plugins', 'generated']);

    const onChange = async (batch: ChangeBatch): Promise<void> => {
      const paths: string[] = [];
      for (const p of batch) if (!(await generator.wroteItself(p))) paths.push(p);
      if (paths.length === 0) return;
      const t0 = Date.now();
      const names = paths.slice(0, SHOWN_PATHS).join(', ') + (paths.length > SHOWN_PATHS ? ` and ${paths.length - SHOWN_PATHS} more` : '');
      this.out(`Changed: ${names}\n`);
      const schema = paths.some((p) => p.startsWith('schema/'));
      const others = paths.some((p) => !p.startsWith('schema/'));
      let regenerateMs = 0;
      if (schema) {
        const changed = await generator.regenerate();
        regenerateMs = Date.now() - t0;
        if (changed === undefined || (!changed && !others)) {
          if (changed === false) this.out('generated/ is up to date; nothing to restart.\n');
          return;
        }
      }
      const times = await launch();
      typeCheck?.request();
      if (times !== undefined) this.out(`${restartLine(Date.now() - t0, { regenerateMs, ...times })}: ${url}\n`);
    };
    const watch = watchTree({ root: this.root, dirs: watched, files: ['.env'], onChange });
    await watch.ready;
    this.out(
      `bindery dev: ${url ?? 'app not running'} (ready in ${((Date.now() - startedAt) / 1000).toFixed(1)} s); watching ${watched.map((d) => `${d}/`).join(', ')}. Ctrl-C stops.\n`,
    );

    await this.untilShutdown(async () => {
      watch.close();
      typeCheck?.close();
      await Promise.all([current?.stop(), standby?.stop()]);
      await embedded?.stop();
    });
    return 0;
  }

  /** Wait for SIGINT or SIGTERM, then run `stop` and print "Stopped." */
  private async untilShutdown(stop: () => Promise<void>): Promise<void> {
    const { onShutdownSignals } = await import('../../app/shutdown.js');
    await new Promise<void>((resolve) => {
      const remove = onShutdownSignals((signal) => {
        this.out(`Received ${signal}: stopping …\n`);
        remove();
        void stop().then(() => {
          this.out('Stopped.\n');
          resolve();
        });
      }, this.out);
    });
  }
}
