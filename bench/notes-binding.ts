/**
 * Benchmark: the generated `POST /notes` binding + validation path against a
 * hand-written Fastify route with a JSON schema doing the same work, and a
 * raw `node:http` server parsing and checking by hand (the practical limit).
 * target ≥ 0.95× the hand-written Fastify route.
 *
 * Every round starts each server in a fresh process (same runtime and loader
 * as this one), warms it up, and takes two measurements:
 *
 * 1. **Alone**: one server at a time; the medians over the rounds give each
 *    server's throughput, latency and CPU per request.
 * 2. **Side by side** (the verdict): each server runs at the same time as
 *    the yardstick, both pinned to the same CPU and driven by the same load,
 *    so the machine's drift (other tenants, frequency) hits both alike; the
 *    ratio of their throughputs is the inverse ratio of their CPU cost.
 *
 * On a machine with two CPUs or more, the servers run on CPU 1 and the load
 * generator on CPU 0 (taskset), so a server and its load do not take turns.
 */
import { fileURLToPath } from 'node:url';
import { pinProcesses, runLoad, startServer, type BenchServer, type LoadFigures, type LoadOptions } from './support/load.js';

interface ServerSpec {
  readonly name: string;
  readonly script: string;
  readonly env: Record<string, string>;
  readonly yardstick?: true;
}

/** The servers; `yardstick` is what the target is measured against ({@link VERDICT_SERVER} is the row it applies to). */
const SERVERS: readonly ServerSpec[] = [
  { name: 'raw node:http (by hand)', script: 'servers/raw-http.ts', env: {} },
  { name: 'Fastify + JSON schema, bare', script: 'servers/fastify-hand.ts', env: { BENCH_BARE: '1' } },
  { name: 'Fastify + JSON schema (hand-written)', script: 'servers/fastify-hand.ts', env: {}, yardstick: true },
  { name: 'bindery generated route', script: 'servers/bindery.ts', env: { BENCH_NO_GROUP: '1' } },
  { name: 'bindery generated route + web group (session, CSRF)', script: 'servers/bindery.ts', env: {} },
];
/** The row the performance target applies to: the binding + validation path. */
export const VERDICT_SERVER = 'bindery generated route';

const BODY = JSON.stringify({ title: 'Benchmark note', body: 'Some text for the body of the note.', tags: ['bench', 'load-test'] });

export interface NotesBenchOptions {
  readonly seconds: number;
  readonly rounds: number;
  readonly connections: number;
}

export interface NotesBenchRow extends LoadFigures {
  readonly name: string;
  /** Server CPU time per request in microseconds (user + system), independent of the load generator. */
  readonly cpuUsPerRequest: number;
  readonly yardstick: boolean;
  /** Side by side with the yardstick: this server's throughput ÷ the yardstick's, per round (empty for the yardstick). */
  readonly sideBySide: number[];
}

export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

/** Check that a server answers the bench request with 201 and a note, so nothing is measured by mistake. */
async function checkServer(port: number, name: string): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${port}/notes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: BODY,
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (res.status !== 201 || json.title !== 'Benchmark note' || !Array.isArray(json.tags)) {
    throw new Error(`${name} answered ${res.status} ${JSON.stringify(json)} instead of 201 with the note`);
  }
}

/** One load run; throws when anything but 2xx came back. */
async function measure(server: BenchServer, name: string, options: LoadOptions): Promise<LoadFigures & { cpuUs: number; cpuMs: number }> {
  const cpuBefore = server.cpuMs();
  const f = await runLoad(server.port, options);
  if (f.non2xx > 0 || f.errors > 0) throw new Error(`${name}: ${f.non2xx} non-2xx responses and ${f.errors} errors under load`);
  const cpuMs = server.cpuMs() - cpuBefore;
  return { ...f, cpuMs, cpuUs: (cpuMs * 1000) / f.requests };
}

/** Run the notes benchmark; returns one row per server (medians of the rounds) and whether the processes were pinned. */
export async function runNotesBench(
  options: NotesBenchOptions,
  log: (line: string) => void,
): Promise<{ rows: NotesBenchRow[]; pinned: boolean }> {
  const here = fileURLToPath(new URL('.', import.meta.url));
  const load = (seconds: number, connections: number): LoadOptions => ({
    seconds,
    connections,
    method: 'POST',
    path: '/notes',
    headers: { 'content-type': 'application/json' },
    body: BODY,
  });
  const servers = SERVERS.map((s) => ({ ...s, alone: [] as Array<LoadFigures & { cpuUs: number }>, sideBySide: [] as number[] }));
  let pinned = false;
  for (let round = 1; round <= options.rounds; round++) {
    // Fresh processes every round: how V8 compiles the hot path differs from
    // one process to the next, by several percent; medians over rounds of
    // fresh processes include that spread instead of one draw of it.
    const running: BenchServer[] = [];
    try {
      for (const s of servers) {
        const server = await startServer(here + s.script, s.env);
        running.push(server);
        await checkServer(server.port, s.name);
      }
      pinned = pinProcesses(
        process.pid,
        running.map((r) => r.pid),
      );
      for (const server of running) await runLoad(server.port, load(2, options.connections));

      for (const [i, s] of servers.entries()) {
        const f = await measure(running[i]!, s.name, load(options.seconds, options.connections));
        s.alone.push(f);
        log(
          `  round ${round}, alone:        ${s.name.padEnd(52)} ${Math.round(f.rps).toString().padStart(7)} req/s  ${f.cpuUs.toFixed(1).padStart(6)} µs CPU/request`,
        );
      }
      const y = servers.findIndex((s) => s.yardstick);
      const half = Math.max(1, Math.floor(options.connections / 2));
      for (const [i, s] of servers.entries()) {
        if (i === y) continue;
        const [theirs, ours] = await Promise.all([
          measure(running[y]!, servers[y]!.name, load(options.seconds, half)),
          measure(running[i]!, s.name, load(options.seconds, half)),
        ]);
        s.sideBySide.push(ours.rps / theirs.rps);
        // Both servers together should keep their CPU busy; if not, the load
        // generator was the limit and the ratio understates the difference.
        const busy = pinned ? `; CPU 1 ${Math.round(((theirs.cpuMs + ours.cpuMs) / (options.seconds * 1000)) * 100)}% busy` : '';
        log(
          `  round ${round}, side by side: ${s.name.padEnd(52)} ${(ours.rps / theirs.rps).toFixed(3)}× the yardstick (${Math.round(ours.rps)} vs ${Math.round(theirs.rps)} req/s${busy})`,
        );
      }
    } finally {
      for (const server of running) await server.stop();
    }
  }
  const rows = servers.map((s) => ({
    name: s.name,
    yardstick: s.yardstick === true,
    rps: median(s.alone.map((f) => f.rps)),
    p50: median(s.alone.map((f) => f.p50)),
    p99: median(s.alone.map((f) => f.p99)),
    cpuUsPerRequest: median(s.alone.map((f) => f.cpuUs)),
    requests: s.alone.reduce((n, f) => n + f.requests, 0),
    non2xx: 0,
    statuses: {},
    errors: 0,
    sideBySide: s.sideBySide,
  }));
  return { rows, pinned };
}
