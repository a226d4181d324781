/**
 * Long-running `bindery serve` and `bindery worker` processes for the
 * scale-out tests, started as `npm start` starts them (node bin/bindery.mjs,
 * from the repository root), each on the same database and keys.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { BIN } from '../runtime/cli/run-cli.js';
import { waitFor } from '../runtime/jobs/wait-for.js';

/** The repository root: the processes' working directory. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The app module the processes load, relative to {@link ROOT}. */
export const SCALE_APP = 'test/scale-out/fixtures/scale-app.ts';

/** A started process: its output so far, its URL once serving, and a graceful stop. */
export interface Instance {
  readonly name: string;
  readonly child: ChildProcess;
  output(): string;
  /** `http://127.0.0.1:<port>` of a `serve` process, once it listens. */
  url: string;
  /** SIGTERM, then the exit code (SIGKILL after 15 s). */
  stop(): Promise<number | null>;
}

/** A minimal environment (PATH, HOME, NO_COLOR) plus `env`. */
export function processEnv(env: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', ...env };
}

/** Start `bindery <args> --app <SCALE_APP>` and collect its output. */
export function startInstance(name: string, args: readonly string[], env: Record<string, string>): Instance {
  const child = spawn(process.execPath, [BIN, ...args, '--app', SCALE_APP], {
    cwd: ROOT,
    env: processEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => {
    out += c.toString();
  });
  child.stderr!.on('data', (c: Buffer) => {
    out += c.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return {
    name,
    child,
    output: () => out,
    url: '',
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      try {
        return await exited;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/** Wait until a `serve` process prints its address (fills `url`) or a worker says it runs; throws with the output on exit or timeout. */
export async function ready(instance: Instance, timeoutMs = 45_000): Promise<void> {
  const serving = /Serving \S+ at (http:\/\/\S+)/;
  await waitFor(
    () => {
      if (instance.child.exitCode !== null) throw new Error(`${instance.name} exited ${instance.child.exitCode}:\n${instance.output()}`);
      return serving.test(instance.output()) || /Worker for \S+ running/.test(instance.output());
    },
    `${instance.name} to start`,
    timeoutMs,
  );
  const m = serving.exec(instance.output());
  if (m) instance.url = m[1]!;
}
