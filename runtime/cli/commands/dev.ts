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
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Command, Option } from 'clipanion';
import { BinderyCommand } from '../base-command.js';
import { ensureEnvFile } from '../env-setup.js';
import { DEFAULT_APP_MODULE, loadApp } from '../load-app.js';
import { startInProcessWorker } from '../in-process-worker.js';
import { startAppProcess, type AppProcess } from '../dev/app-process.js';
import { watchTree, type ChangeBatch } from '../dev/watch-tree.js';

/** How many changed paths a "Changed:" line names before "and N more". */
const SHOWN_PATHS = 4;

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

  /** The app process: migrate, serve, run the worker; report the URL to the parent. */
  private async runChild(): Promise<number> {
    // Standby: load the framework now, the app (fresh code) only when told to go.
    const { startApp } = await import('../../app/start-app.js');
    await import('../../jobs/jobs-runtime.js');
    const told = (type: string) => new Promise<boolean>((resolve) => {
      process.on('message', (message: { type?: string }) => { if (message?.type === type) resolve(true); });
      process.once('disconnect', () => resolve(false));
      process.once('SIGTERM', () => resolve(false));
    });
    const go = told('go');
    const serve = told('serve');
    process.on('SIGINT', () => {}); // the dev command stops this process itself
    process.send?.({ type: 'standby' });
    if (!(await go)) {
      process.disconnect?.();
      return 0;
    }
    // Import the app while the previous process is still stopping; serve once it stopped.
    const env = await this.env();
    const app = await loadApp(this.root, this.app);
    if (!(await serve)) {
      process.disconnect?.();
      return 0;
    }
    const running = await startApp(app, { env, migrate: true, out: this.out, handleSignals: false });
    await startInProcessWorker(running, this.out, 'bindery dev', false);
    process.send?.({ type: 'ready', url: running.url });
    process.once('disconnect', () => { void running.close(); });
    process.once('SIGTERM', () => { void running.close(); });
    await running.closed;
    process.disconnect?.();
    return 0;
  }

  private async runParent(): Promise<number> {
    const created = await ensureEnvFile(this.root);
    if (created) this.out(`Created .env (${created.from === '.env.example' ? 'copied from .env.example' : 'every setting at its default'}).\n`);
    const { generate, formatDiagnostic } = await import('../../../generator/index.js');
    /** Content hashes of what the last regeneration wrote, to tell its own file events from edits by others. */
    const written = new Map<string, string>();
    const hash = (path: string) => readFile(join(this.root, path)).then((b) => createHash('sha1').update(b).digest('hex'), () => 'missing');
    /** Regenerate; print what changed or the diagnostics. @returns whether generated/ changed, or undefined on schema errors. */
    const regenerate = async (): Promise<boolean | undefined> => {
      const result = await generate({ root: this.root });
      if (!result.ok) {
        for (const d of result.diagnostics) this.err(`${formatDiagnostic(d)}\n`);
        const n = result.diagnostics.length;
        this.err(`${n} schema error${n === 1 ? '' : 's'}; generated/ unchanged, still serving the last good build.\n`);
        if (result.diagnostics.some((d) => /allow-destructive/.test(d.message))) {
          this.err('To apply a destructive change, run "bindery generate --allow-destructive" (it writes the migration); dev then restarts and applies it.\n');
        }
        return undefined;
      }
      if (result.changed.length === 0) return false;
      for (const path of result.changed) written.set(path, await hash(path));
      const migrations = result.changed.filter((p) => /\/migrations\/[^/]+\.sql$/.test(p));
      this.out(`Regenerated ${result.changed.length} file${result.changed.length === 1 ? '' : 's'}${migrations.length > 0 ? ` (new migration${migrations.length === 1 ? '' : 's'}: ${migrations.map((m) => m.split('/').pop()).join(', ')}, applied on restart)` : ''}.\n`);
      return true;
    };
    await regenerate();

    const env = await this.env();
    let embedded: { stop(): Promise<void> } | undefined;
    if (!env.DATABASE_URL) {
      const { startEmbeddedPostgres } = await import('../../db/embedded/index.js');
      const { EMBEDDED_DATA_DIR } = await import('../../app/app-database.js');
      // Started here so it outlives each app process; the app processes attach to it.
      embedded = await startEmbeddedPostgres({ dataDir: join(this.root, EMBEDDED_DATA_DIR), displayDir: EMBEDDED_DATA_DIR, onProgress: this.out });
    }

    // Every app process listens on the same port: a port 0 ("any free port") is chosen once, here.
    const childEnv: NodeJS.ProcessEnv = { ...process.env, ...this.context.env };
    const anyPort = /^(.*):0$/.exec(env.HTTP_ADDR?.trim() ?? '');
    if (anyPort) {
      const { freePort } = await import('../../support/free-port.js');
      const host = anyPort[1]!.replace(/^\[|\]$/g, '');
      childEnv.HTTP_ADDR = `${anyPort[1]}:${await freePort(host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host)}`;
    }

    // The app processes' own progress lines that would repeat on every restart.
    const repeated = /^(Using the embedded PostgreSQL already running for this project .*|Migrations: nothing to apply\.|Serving \S+ at \S+|Worker running in this process \(.*\)\.)$/;
    const quiet = (text: string) => text.split(/(?<=\n)/).filter((line) => !repeated.test(line.trimEnd())).join('');
    const spawnChild = () => startAppProcess({ root: this.root, app: this.app, env: childEnv, out: (t) => this.out(quiet(t)), err: this.err });
    let current: AppProcess | undefined;
    let standby: AppProcess | undefined = spawnChild();
    let url: string | undefined;
    /** Replace the app process by the warm standby, then start the next standby. @returns whether the new one serves. */
    const launch = async (): Promise<boolean> => {
      const next = standby ?? spawnChild();
      standby = undefined;
      // The next process imports the app while the current one stops; it listens once the port is free.
      const warming = next.standby.then((warm) => { if (warm) next.go(); return warm; });
      const [, warm] = await Promise.all([current?.stop(), warming]);
      current = next;
      if (!warm) {
        this.err(`The app process stopped while loading bindery (exit ${await next.exited}).\n`);
        return false;
      }
      next.serve();
      const ready = await next.ready;
      standby = spawnChild();
      if (ready === undefined) {
        this.err(`The app stopped (exit ${await next.exited}); fix the error above, dev restarts it on the next change.\n`);
        return false;
      }
      url = ready;
      void next.exited.then((code) => {
        if (current === next && code !== 0) this.err(`The app exited (${code}); dev restarts it on the next change.\n`);
      });
      return true;
    };

    const startedAt = Date.now();
    await launch();
    const shown = (dirs: string[]) => dirs.filter((d) => existsSync(join(this.root, d)));
    const watched = shown(['schema', 'app', 'views', 'plugins', 'generated']);
    this.out(`bindery dev: ${url ?? 'app not running'} (ready in ${((Date.now() - startedAt) / 1000).toFixed(1)} s); watching ${watched.map((d) => `${d}/`).join(', ')}. Ctrl-C stops.\n`);

    const onChange = async (batch: ChangeBatch): Promise<void> => {
      const paths: string[] = [];
      for (const p of batch) if (!(written.has(p) && written.get(p) === (await hash(p)))) paths.push(p);
      if (paths.length === 0) return;
      const names = paths.slice(0, SHOWN_PATHS).join(', ') + (paths.length > SHOWN_PATHS ? ` and ${paths.length - SHOWN_PATHS} more` : '');
      this.out(`Changed: ${names}\n`);
      const schema = paths.some((p) => p.startsWith('schema/'));
      const others = paths.some((p) => !p.startsWith('schema/'));
      if (schema) {
        const changed = await regenerate();
        if (changed === undefined || (!changed && !others)) {
          if (changed === false) this.out('generated/ is up to date; nothing to restart.\n');
          return;
        }
      }
      const t0 = Date.now();
      if (await launch()) {
        this.out(`Restarted in ${Date.now() - t0} ms: ${url}\n`);
      }
    };
    const watch = watchTree({ root: this.root, dirs: watched, files: ['.env'], onChange });

    const { onShutdownSignals } = await import('../../app/shutdown.js');
    await new Promise<void>((resolve) => {
      const remove = onShutdownSignals((signal) => {
        this.out(`Received ${signal}: stopping …\n`);
        watch.close();
        remove();
        void (async () => {
          await Promise.all([current?.stop(), standby?.stop()]);
          await embedded?.stop();
          this.out('Stopped.\n');
          resolve();
        })();
      }, this.out);
    });
    return 0;
  }
}
