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
import { BinderyCommand } from '../../app/base-command.js';
import { ensureEnvFile } from '../env-setup.js';
import { DEFAULT_APP_MODULE } from '../../app/load-app.js';
import { startAppProcess, type AppProcess } from '../dev/app-process.js';
import { watchTree, type ChangeBatch } from '../dev/watch-tree.js';
import { withDevTool } from '../../support/dev-tools.js';

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
    const { generate, formatDiagnostic } = await withDevTool('ts-morph', () => import('../../../generator/index.js'), {
      task: 'bindery dev',
    });
    /** Content hashes of what the last regeneration wrote, to tell its own file events from edits by others. */
    const written = new Map<string, string>();
    const hash = (path: string) =>
      readFile(join(this.root, path)).then(
        (b) => createHash('sha1').update(b).digest('hex'),
        () => 'missing',
      );
    /** Regenerate; print what changed or the diagnostics. @returns whether generated/ changed, or undefined on schema errors. */
    const regenerate = async (): Promise<boolean | undefined> => {
      const result = await generate({ root: this.root });
      if (!result.ok) {
        for (const d of result.diagnostics) this.err(`${formatDiagnostic(d)}\n`);
        const n = result.diagnostics.length;
        this.err(`${n} schema error${n === 1 ? '' : 's'}; generated/ unchanged, still serving the last good build.\n`);
        if (result.diagnostics.some((d) => /allow-destructive/.test(d.message))) {
          this.err(
            'To apply a destructive change, run "bindery generate --allow-destructive" (it writes the migration); dev then restarts and applies it.\n',
          );
        }
        return undefined;
      }
      if (result.changed.length === 0) return false;
      for (const path of result.changed) written.set(path, await hash(path));
      const migrations = result.changed.filter((p) => /\/migrations\/[^/]+\.sql$/.test(p));
      this.out(
        `Regenerated ${result.changed.length} file${result.changed.length === 1 ? '' : 's'}${migrations.length > 0 ? ` (new migration${migrations.length === 1 ? '' : 's'}: ${migrations.map((m) => m.split('/').pop()).join(', ')}, applied on restart)` : ''}.\n`,
      );
      return true;
    };
    await regenerate();

    const env = await this.env();
    let embedded: { url(database?: string): string; stop(): Promise<void> } | undefined;
    if (!env.DATABASE_URL) {
      const { startEmbeddedPostgres } = await import('../../db/embedded/index.js');
      const { EMBEDDED_DATA_DIR } = await import('../../app/app-database.js');
      // Started here so it outlives each app process; the app processes attach to it.
      embedded = await startEmbeddedPostgres({
        dataDir: join(this.root, EMBEDDED_DATA_DIR),
        displayDir: EMBEDDED_DATA_DIR,
        onProgress: this.out,
      });
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
    const repeated =
      /^(Using the embedded PostgreSQL already running for this project .*|Migrations: nothing to apply\.|Serving \S+ at \S+|Worker running in this process \(.*\)\.|\{.*"msg":"Worker connected and looking for jobs.*\})$/;
    const quiet = (text: string) =>
      text
        .split(/(?<=\n)/)
        .filter((line) => !repeated.test(line.trimEnd()))
        .join('');
    const spawnChild = () =>
      startAppProcess({ root: this.root, app: this.app, env: childEnv, out: (t) => this.out(quiet(t)), err: this.err });
    let current: AppProcess | undefined;
    let standby: AppProcess | undefined = spawnChild();
    let url: string | undefined;
    /** The app's embedded database, once an app process opened it: later ones connect to it directly. */
    let database: { app: string; url: string } | undefined;
    /** Whether the last {@link launch} had to wait for its standby to load the framework. */
    let cold = false;
    /** Replace the app process by the warm standby, then start the next standby. @returns whether the new one serves. */
    const launch = async (): Promise<boolean> => {
      const next = standby ?? spawnChild();
      standby = undefined;
      cold = !next.warm;
      // The next process loads and sets up the app while the current one stops; it listens once the port is free.
      const preparing = next.standby.then((warm) => {
        if (!warm) return false;
        next.go(database);
        return next.prepared;
      });
      const old = current;
      void old?.stop();
      const [, prepared] = await Promise.all([old?.released, preparing]);
      current = next;
      if (prepared) next.serve();
      const ready = prepared ? await next.ready : undefined;
      standby = spawnChild();
      if (ready === undefined) {
        this.err(`The app stopped (exit ${await next.exited}); fix the error above, dev restarts it on the next change.\n`);
        return false;
      }
      url = ready.url;
      if (embedded !== undefined) database = { app: ready.app, url: embedded.url(ready.app) };
      void next.exited.then((code) => {
        if (current === next && code !== 0) this.err(`The app exited (${code}); dev restarts it on the next change.\n`);
      });
      return true;
    };

    const startedAt = Date.now();
    await launch();
    const shown = (dirs: string[]) => dirs.filter((d) => existsSync(join(this.root, d)));
    const watched = shown(['schema', 'app', 'views', 'plugins', 'generated']);

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
        this.out(`Restarted in ${Date.now() - t0} ms${cold ? ' (the standby was still loading bindery)' : ''}: ${url}\n`);
      }
    };
    const watch = watchTree({ root: this.root, dirs: watched, files: ['.env'], onChange });
    await watch.ready;
    this.out(
      `bindery dev: ${url ?? 'app not running'} (ready in ${((Date.now() - startedAt) / 1000).toFixed(1)} s); watching ${watched.map((d) => `${d}/`).join(', ')}. Ctrl-C stops.\n`,
    );

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
