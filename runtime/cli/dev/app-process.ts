/**
 * The app process of `bindery dev` (docs/cli.md "dev — the development loop"): the app is
 * served by a child process (`bindery dev --serve-child`) that the dev
 * command replaces on every change, so each build runs in a fresh module
 * graph while the embedded PostgreSQL stays up in the parent.
 *
 * A child is started ahead of need (a warm standby): it loads the framework,
 * says `{ type: 'standby' }`, and waits for `{ type: 'go' }` before it
 * imports the app (while the previous process is still stopping), then for
 * `{ type: 'serve' }` (the port is free), so a restart costs little more
 * than the boot. Then it migrates, serves and says `{ type: 'ready', url }`. It shuts
 * down gracefully on SIGTERM, and on its own when the IPC channel closes (the
 * parent died).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { binderyPackageRoot } from '../../support/package-root.js';

/** Messages the child sends. */
export type ChildMessage = { readonly type: 'standby' } | { readonly type: 'ready'; readonly url: string };

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
  /** Let the child import the app (once {@link standby} resolved). */
  go(): void;
  /** Let the child serve (after {@link go}, once the port is free). */
  serve(): void;
  /** Resolves with the URL once serving, or with `undefined` when the child exited first. */
  readonly ready: Promise<string | undefined>;
  /** Resolves with the exit code (or the signal's name) once the child exited. */
  readonly exited: Promise<number | string>;
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
  const standby = new Promise<boolean>((resolve) => {
    child.on('message', (message: ChildMessage) => {
      if (message?.type === 'standby') resolve(true);
    });
    void exited.then(() => resolve(false));
  });
  const ready = new Promise<string | undefined>((resolve) => {
    child.on('message', (message: ChildMessage) => {
      if (message?.type === 'ready') resolve(message.url);
    });
    void exited.then(() => resolve(undefined));
  });
  let stopping: Promise<void> | undefined;
  return {
    pid: child.pid ?? -1,
    standby,
    go() {
      if (child.connected) child.send({ type: 'go' });
    },
    serve() {
      if (child.connected) child.send({ type: 'serve' });
    },
    ready,
    exited,
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
