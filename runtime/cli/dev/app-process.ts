/**
 * The app process of `bindery dev` (docs/cli.md "dev — the development loop"): the app is
 * served by a child process (`bindery dev --serve-child`) that the dev
 * command replaces on every change, so each build runs in a fresh module
 * graph while the embedded PostgreSQL stays up in the parent.
 *
 * A child is started ahead of need (a warm standby): it loads the framework
 * (the `bindery/<entry>` modules the project imports), says
 * `{ type: 'standby' }`, and waits for `{ type: 'go' }`. Then, while the
 * previous process is still stopping, it imports the app, migrates, runs the
 * setup steps and builds the HTTP server, says `{ type: 'prepared' }` and
 * waits for `{ type: 'serve' }` (the port is free); it listens and says
 * `{ type: 'ready', url }`, then starts the in-process worker. So a restart
 * costs the app's own modules and setup, not the framework's. It shuts down
 * gracefully on SIGTERM, and on its own when the IPC channel closes (the
 * parent died); it says `{ type: 'released' }` as soon as it stopped
 * listening, so the next process need not wait for it to exit.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { binderyPackageRoot } from '../../support/package-root.js';

/** Messages the child sends; `ready` names the app (`defineApp({ name })`). */
export type ChildMessage =
  | { readonly type: 'standby' }
  | { readonly type: 'prepared' }
  | { readonly type: 'ready'; readonly url: string; readonly app: string }
  | { readonly type: 'released' };

/**
 * Messages the parent sends. `go` may carry the embedded database an earlier
 * process of the same app opened, which the child then connects to directly.
 */
export type ParentMessage =
  | { readonly type: 'go'; readonly database?: { readonly app: string; readonly url: string } }
  | { readonly type: 'serve' };

/** Options of {@link startAppProcess}. */
export interface AppProcessOptions {
  /** Project root (the child's working directory). */
  readonly root: string;
  /** The app module, relative to the root. */
  readonly app: string;
  /** The child's environment. */
  readonly env: NodeJS.ProcessEnv;
  /** Where the child's stdout and stderr go. */
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

/** A started app process. */
export interface AppProcess {
  readonly pid: number;
  /** Resolves with true once the framework is loaded and the child waits for {@link go}, false when it exited first. */
  readonly standby: Promise<boolean>;
  /** Whether {@link standby} resolved with true already (the framework is loaded). */
  readonly warm: boolean;
  /** Let the child import the app and set it up (once {@link standby} resolved); see {@link ParentMessage}. */
  go(database?: { readonly app: string; readonly url: string }): void;
  /** Resolves with true once the app is set up and the child waits for {@link serve}, false when it exited first. */
  readonly prepared: Promise<boolean>;
  /** Let the child listen (after {@link prepared}, once the port is free). */
  serve(): void;
  /** Resolves with the URL and the app's name once serving, or with `undefined` when the child exited first. */
  readonly ready: Promise<{ readonly url: string; readonly app: string } | undefined>;
  /** Resolves with the exit code (or the signal's name) once the child exited. */
  readonly exited: Promise<number | string>;
  /** Whether the child is still running. */
  readonly alive: boolean;
  /** Resolves once the child stopped listening (after {@link stop}) or exited: its port is free. */
  readonly released: Promise<void>;
  /** SIGTERM, then SIGKILL after `graceMs` (default 5000); resolves once exited. Idempotent. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Spawn `bindery dev --serve-child` for the project.
 * @returns the process; `ready` tells when it serves.
 */
export function startAppProcess(options: AppProcessOptions): AppProcess {
  const bin = join(binderyPackageRoot(), 'bin', 'bindery.mjs');
  const child: ChildProcess = spawn(process.execPath, [...process.execArgv, bin, 'dev', '--serve-child', '--app', options.app], {
    cwd: options.root,
    env: options.env,
    // Its own process group: a terminal's Ctrl-C reaches the dev command, which stops the child in order.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  child.stdout!.on('data', (chunk: Buffer) => options.out(chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => options.err(chunk.toString()));
  const exited = new Promise<number | string>((resolve) => {
    child.on('exit', (code, signal) => resolve(code ?? signal ?? 1));
    child.on('error', (error) => {
      options.err(`Cannot start the app process: ${error.message}\n`);
      resolve(1);
    });
  });
  const said = (type: ChildMessage['type']) =>
    new Promise<boolean>((resolve) => {
      child.on('message', (message: ChildMessage) => {
        if (message?.type === type) resolve(true);
      });
      void exited.then(() => resolve(false));
    });
  const standby = said('standby');
  let warm = false;
  void standby.then((w) => {
    warm = w;
  });
  const released = said('released').then(() => {});
  const prepared = said('prepared');
  const ready = new Promise<{ url: string; app: string } | undefined>((resolve) => {
    child.on('message', (message: ChildMessage) => {
      if (message?.type === 'ready') resolve({ url: message.url, app: message.app });
    });
    void exited.then(() => resolve(undefined));
  });
  let stopping: Promise<void> | undefined;
  return {
    pid: child.pid ?? -1,
    standby,
    get warm() {
      return warm;
    },
    go(database) {
      if (child.connected) child.send({ type: 'go', ...(database === undefined ? {} : { database }) } satisfies ParentMessage);
    },
    serve() {
      if (child.connected) child.send({ type: 'serve' } satisfies ParentMessage);
    },
    prepared,
    ready,
    exited,
    get alive() {
      return child.exitCode === null && child.signalCode === null;
    },
    released,
    stop(graceMs = 5000) {
      stopping ??= (async () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
      })();
      return stopping;
    },
  };
}
