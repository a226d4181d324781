/**
 * The app process of `bindery dev` (`bindery dev --serve-child`; docs/cli.md
 * "dev — the development loop"), the other side of {@link startAppProcess}:
 * warm up, wait for `go`, load and set up the app, wait for `serve`, listen,
 * run the in-process worker until told to stop.
 */
import type { Env } from '../../config/setting.js';
import { loadApp } from '../../app/load-app.js';
import { startInProcessWorker } from '../in-process-worker.js';
import { migrationsApplied } from '../migrations-applied.js';
import type { ChildMessage, ParentMessage } from './app-process.js';
import { preloadFramework } from './preload.js';

/** Thrown inside the boot when the dev command dismissed the process before it served. */
class Dismissed extends Error {}

/** What {@link serveChild} needs. */
export interface ServeChildOptions {
  /** Project root. */
  readonly root: string;
  /** The app module, relative to the root. */
  readonly app: string;
  /** The settings environment (process environment over `.env`). */
  readonly env: () => Promise<Env>;
  /** Progress text. */
  readonly out: (text: string) => void;
}

/**
 * Run as the app process: talks to the dev command over the IPC channel.
 * @returns once the app closed (SIGTERM, or the IPC channel closed), or at once when dismissed before serving.
 * @throws whatever loading or booting the app throws (the dev command prints it and waits for the next change).
 */
export async function serveChild(options: ServeChildOptions): Promise<void> {
  // Standby: load the framework now, the app (fresh code) only when told to go.
  const { startApp } = await import('../../app/start-app.js');
  const { jobsRuntimeOf } = await import('../../jobs/jobs-runtime.js');
  await preloadFramework(options.root);
  const send = (message: ChildMessage) => process.send?.(message);
  const told = <T extends ParentMessage['type']>(type: T) =>
    new Promise<Extract<ParentMessage, { type: T }> | undefined>((resolve) => {
      process.on('message', (message: ParentMessage) => {
        if (message?.type === type) resolve(message as Extract<ParentMessage, { type: T }>);
      });
      process.once('disconnect', () => resolve(undefined));
      process.once('SIGTERM', () => resolve(undefined));
    });
  const go = told('go');
  const serve = told('serve');
  process.on('SIGINT', () => {}); // the dev command stops this process itself
  send({ type: 'standby' });
  const started = await go;
  if (started === undefined) return;

  // Load and set up the app while the previous process is still stopping; listen once it stopped.
  const app = await loadApp(options.root, options.app);
  let env = await options.env();
  // The embedded database a previous app process opened: connect to it directly (no server or database checks).
  if (!env['DATABASE_URL'] && started.database?.app === app.name) env = { ...env, DATABASE_URL: started.database.url };
  const running = await startApp(app, {
    env,
    migrate: true,
    out: options.out,
    handleSignals: false,
    beforeListen: async () => {
      send({ type: 'prepared' });
      if ((await serve) === undefined) throw new Dismissed();
    },
  }).catch((error: unknown) => {
    if (error instanceof Dismissed) return undefined;
    throw error;
  });
  if (running === undefined) return;
  await migrationsApplied(options.root);
  send({ type: 'ready', url: running.url, app: app.name });
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void running.close();
    // The port is free once the server stopped listening (in-flight requests still finish):
    // say so, and the next process listens without waiting for this one to exit.
    const released = setInterval(() => {
      if (running.server.server.listening) return;
      clearInterval(released);
      if (process.connected) send({ type: 'released' });
    }, 5);
  };
  process.once('disconnect', stop);
  process.once('SIGTERM', stop);
  // The worker starts once the server answers (jobs wait a moment, requests do not);
  // a worker whose start overlapped the shutdown is stopped here.
  await startInProcessWorker(running, options.out, 'bindery dev', false);
  if (stopping) await jobsRuntimeOf(running.services)?.stopWorker();
  await running.closed;
}
