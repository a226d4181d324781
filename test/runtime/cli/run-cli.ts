/**
 * Runs `node bin/bindery.mjs …` as a child process, the way users do.
 */
import { spawn } from 'node:child_process';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../../bin/bindery.mjs', import.meta.url));

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * @param args CLI arguments.
 * @param options `cwd` (the project root), `env` (added to a minimal environment: PATH, HOME, NO_COLOR), `timeoutMs` (the child is killed after it; default 60 000 ms).
 */
export function runCli(
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string>; timeoutMs?: number },
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * Runs the CLI's `main` in this process, with its own streams, working
 * directory and environment (only `env`, plus NO_COLOR): the same command
 * code as {@link runCli} without starting a process, which loads every
 * source module through tsx again (seconds each on a loaded machine). Use
 * {@link runCli} at least once where the real `bin/bindery.mjs` matters.
 */
export async function runCliInProcess(
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string>; timeoutMs?: number },
): Promise<CliRun> {
  const { main } = await import('../../../runtime/cli/main.js');
  let stdout = '';
  let stderr = '';
  const stream = (append: (text: string) => void) =>
    new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        append(chunk.toString());
        done();
      },
    });
  const code = await main(args, {
    cwd: options.cwd,
    env: { NO_COLOR: '1', ...options.env },
    stdin: process.stdin,
    stdout: stream((t) => {
      stdout += t;
    }),
    stderr: stream((t) => {
      stderr += t;
    }),
  });
  return { code, stdout, stderr };
}
