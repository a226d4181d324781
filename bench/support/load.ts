/**
 * Load generation for the HTTP benchmarks: start a bench server in a child
 * process under the same runtime and loader as this process, wait for its
 * `listening <port>` line, drive it with autocannon, stop it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import autocannon from 'autocannon';

export interface LoadOptions {
  /** Seconds of load per measured round. */
  readonly seconds: number;
  /** Concurrent connections. */
  readonly connections: number;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
}

export interface LoadFigures {
  /** Mean requests per second. */
  readonly rps: number;
  /** Latency percentiles in milliseconds. */
  readonly p50: number;
  readonly p99: number;
  readonly non2xx: number;
  readonly errors: number;
}

export interface BenchServer {
  readonly port: number;
  stop(): Promise<void>;
}

/** Start `script` (a TypeScript file) with this process's loader flags; resolves when it listens. */
export async function startServer(script: string, env: Record<string, string> = {}): Promise<BenchServer> {
  const child: ChildProcess = spawn(process.execPath, [...process.execArgv, script], {
    env: { ...process.env, ...env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const m = /listening (\d+)/.exec(seen);
      if (m) {
        // Keep draining whatever the server prints later, without keeping it.
        child.stdout!.off('data', onData);
        child.stdout!.resume();
        resolve(Number(m[1]));
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${script} exited with code ${code} before listening`)));
  });
  return {
    port,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

/** Run autocannon against the server for `options.seconds`. */
export async function runLoad(port: number, options: LoadOptions): Promise<LoadFigures> {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${options.path}`,
    connections: options.connections,
    duration: options.seconds,
    method: options.method,
    headers: options.headers,
    ...(options.body === undefined ? {} : { body: options.body }),
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}
