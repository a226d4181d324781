/**
 * Load generation for the HTTP benchmarks: start a bench server in a child
 * process under the same runtime and loader as this process, wait for its
 * `listening <port>` line, drive it with autocannon, stop it.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpus } from 'node:os';
import { once } from 'node:events';
import autocannon from 'autocannon';
import { readFileSync } from 'node:fs';

export interface LoadOptions {
  /** Seconds of load per measured round. */
  readonly seconds: number;
  /** Concurrent connections. */
  readonly connections: number;
  readonly method: 'GET' | 'POST' | 'PATCH';
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
  /** Bodies sent in turn on each connection instead of `body` (a write that must change the row every time). */
  readonly bodies?: readonly string[];
}

export interface LoadFigures {
  /** Mean requests per second. */
  readonly rps: number;
  /** Latency percentiles in milliseconds. */
  readonly p50: number;
  readonly p99: number;
  readonly non2xx: number;
  readonly errors: number;
  /** Requests completed. */
  readonly requests: number;
  /** Responses per status code, e.g. `{ '201': 51234 }`. */
  readonly statuses: Readonly<Record<string, number>>;
}

export interface BenchServer {
  readonly port: number;
  /** The server's process ID. */
  readonly pid: number;
  /** CPU time (user + system) the server process has used so far, in milliseconds (Linux /proc; NaN elsewhere). */
  cpuMs(): number;
  /** The system (kernel) part of {@link cpuMs}. */
  systemMs(): number;
  stop(): Promise<void>;
}

/** CPU time of a process from /proc/<pid>/stat (utime + stime), in milliseconds; NaN when unavailable. */
function processCpuMs(pid: number, which: 'all' | 'system' = 'all'): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields after the command: state is [0], utime is [11], stime is [12] (in clock ticks, 100 per second on Linux).
    return (((which === 'all' ? Number(fields[11]) : 0) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

/**
 * Start `script` and resolve when it listens. By default a TypeScript file
 * run with this process's node and loader flags (tsx); `runtime` names
 * another node binary and its flags (plain JavaScript under plain node: `{ node, execArgv: [] }`).
 */
export async function startServer(
  script: string,
  env: Record<string, string> = {},
  runtime: { readonly node: string; readonly execArgv: readonly string[] } = { node: process.execPath, execArgv: process.execArgv },
): Promise<BenchServer> {
  const child: ChildProcess = spawn(runtime.node, [...runtime.execArgv, script], {
    env: { ...process.env, ...env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // A bench stopped early (Ctrl-C) leaves no server behind.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
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
    pid: child.pid!,
    cpuMs: () => processCpuMs(child.pid!),
    systemMs: () => processCpuMs(child.pid!, 'system'),
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
    ...(options.bodies === undefined ? {} : { requests: options.bodies.map((body) => ({ method: options.method, body })) }),
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    requests: result.requests.total,
    statuses: Object.fromEntries(
      Object.entries(result.statusCodeStats ?? {}).map(([code, stat]) => [code, (stat as { count: number }).count]),
    ),
  };
}

/**
 * Pin the load generator to CPU 0 and the servers to CPU 1 (Linux `taskset`),
 * so a server and its load do not take turns on one core. Does nothing on a
 * machine with one CPU or without taskset.
 * @returns whether the processes were pinned.
 */
export function pinProcesses(loaderPid: number, serverPids: readonly number[]): boolean {
  // cpus(), not availableParallelism(): once this process is pinned, the latter says 1.
  if (cpus().length < 2) return false;
  // `-a` walks the process's threads; one that ends meanwhile fails the call, so try again.
  const pin = (args: string[]): boolean => {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        execFileSync('taskset', args, { stdio: 'ignore' });
        return true;
      } catch {
        // try again
      }
    }
    return false;
  };
  let pinned = pin(['-a', '-p', '-c', '0', String(loaderPid)]);
  for (const pid of serverPids) pinned = pin(['-a', '-p', '-c', '1', String(pid)]) && pinned;
  return pinned;
}
