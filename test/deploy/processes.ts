/**
 * Commands and long-running processes of the deploy tests, in a folder
 * outside the repository, with a minimal environment.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { waitFor } from '../runtime/jobs/wait-for.js';

/**
 * What a process needs to reach the npm registry as this one does: npm's
 * cache, registry and config files, and the certificate authorities and
 * proxies of the machine (a Node.js from the registry, as CI runs, trusts
 * only its own bundled authorities and reads no global npmrc of its own).
 */
const NETWORK =
  /^(npm_config_(cache|registry|globalconfig|userconfig|cafile|ca|strict_ssl|proxy|https_proxy|noproxy)|NODE_EXTRA_CA_CERTS|SSL_CERT_(FILE|DIR)|(HTTPS?|NO)_PROXY)$/i;

/** A minimal environment (PATH, HOME, TMPDIR, NO_COLOR, and what reaching the npm registry needs) plus `env`. */
export function baseEnv(env: Record<string, string> = {}): Record<string, string> {
  const out: Record<string, string> = { NO_COLOR: '1' };
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && (k === 'PATH' || k === 'HOME' || k === 'TMPDIR' || NETWORK.test(k))) out[k] = v;
  return { ...out, ...env };
}

/** The outcome of {@link command}. */
export interface Finished {
  readonly code: number | null;
  /** stdout and stderr interleaved. */
  readonly output: string;
  readonly stdout: string;
}

/** Run `argv` in `cwd` to its end (SIGKILL after `timeoutMs`); stdout and stderr interleaved. */
export function command(argv: readonly string[], cwd: string, env: Record<string, string>, timeoutMs = 120_000): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => {
      output += c.toString();
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      output += c.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output, stdout });
    });
  });
}

/** A running server or worker. */
export interface Running {
  readonly child: ChildProcess;
  output(): string;
  /** SIGTERM, then the exit code (SIGKILL after 15 s). */
  stop(): Promise<number | null>;
}

/** Start `argv` in `cwd`; resolves once its output matches `ready` (throws with the output when it exits first or after 60 s). */
export async function start(argv: readonly string[], cwd: string, env: Record<string, string>, ready: RegExp): Promise<Running> {
  const child = spawn(argv[0]!, argv.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => {
    out += c.toString();
  });
  child.stderr!.on('data', (c: Buffer) => {
    out += c.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const running: Running = {
    child,
    output: () => out,
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
  try {
    await waitFor(
      () => {
        if (child.exitCode !== null) throw new Error(`${argv.join(' ')} exited ${child.exitCode}:\n${out}`);
        return ready.test(out);
      },
      `${argv.join(' ')} to start`,
      60_000,
    );
  } catch (error) {
    await running.stop();
    throw error;
  }
  return running;
}
