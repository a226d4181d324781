/**
 * Benchmark: what observability costs per request (docs/observability.md
 * "Cost"; docs/benchmarks.md). The reference app in five variants side by
 * side: without the `observability()` step, with it and tracing off, with
 * tracing on at 100 % sampling (with and without stage spans) and at 10 %,
 * exporting OTLP/HTTP protobuf to a receiver this process runs.
 *
 * As users deploy it by default (bench/servers/bindery-observed.mjs):
 * the reference app's production build under plain `node`,
 * `NODE_ENV=production`, once per node binary (this process's, then each of
 * `BENCH_NODES`); `BENCH_HTTP_RUNTIMES=built,tsx` adds the TypeScript
 * sources under tsx (bench/servers/bindery-observed.mjs with BENCH_APP_SOURCES=1), as for the HTTP
 * suite. `BENCH_OBSERVABILITY_PROFILE=<dir>`: the traced server (`on`, or
 * the variant of `BENCH_OBSERVABILITY_PROFILE_VARIANT`) writes a V8 CPU
 * profile there when it stops. `BENCH_OBSERVABILITY_CASES=invalid,create`:
 * some cases only.
 *
 * Method as in bench/http.ts: fresh processes every round, every case
 * checked and warmed up, then per case each variant alone (its throughput)
 * and all three side by side on one CPU (10 connections each); the figure is
 * the server's CPU time per request (user + system from /proc/<pid>/stat)
 * side by side, the verdict the median of the per-round ratios to the
 * variant without the step.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { HTTP_CASES } from './http.js';
import { currentCookies, makeHttpFixture, type HttpFixture } from './http/fixture.js';
import { checkProductionBuild } from './http/runtimes.js';
import { benchDatabase } from './support/database.js';
import { pinProcesses, runLoad, startServer, type BenchServer } from './support/load.js';

export interface ObservabilityBenchOptions {
  readonly seconds: number;
  readonly rounds: number;
  readonly connections: number;
}

/** The variants, in the order of the table. */
export const VARIANTS = ['without', 'off', 'on', 'lean', 'sampled'] as const;
type Variant = (typeof VARIANTS)[number];

/** The cases measured: the HTTP suite's, bindery's side. */
const CASE_KEYS = ['create', 'invalid', 'list', 'token', 'guest'];

/** One way of running the observed servers. */
export interface ObservabilityRuntime {
  /** For the report, e.g. `production build, plain node v24.0.0`. */
  readonly label: string;
  readonly node: string;
  readonly execArgv: readonly string[];
  readonly script: string;
  readonly env: Readonly<Record<string, string>>;
}

/** The runtimes chosen by `BENCH_HTTP_RUNTIMES` (default `built`), the production build once per node binary of `nodes`. */
export async function observabilityRuntimes(nodes: readonly string[]): Promise<ObservabilityRuntime[]> {
  const wanted = (process.env.BENCH_HTTP_RUNTIMES ?? 'built').split(',').map((s) => s.trim());
  const out: ObservabilityRuntime[] = [];
  if (wanted.includes('built')) {
    await checkProductionBuild();
    for (const node of nodes)
      out.push({
        label: `production build, plain node ${execFileSync(node, ['--version'], { encoding: 'utf8' }).trim()}`,
        node,
        execArgv: [],
        script: fileURLToPath(new URL('./servers/bindery-observed.mjs', import.meta.url)),
        env: { NODE_ENV: 'production' },
      });
  }
  if (wanted.includes('tsx'))
    out.push({
      label: `TypeScript sources through tsx, node ${process.version}`,
      node: process.execPath,
      execArgv: process.execArgv,
      script: fileURLToPath(new URL('./servers/bindery-observed.mjs', import.meta.url)),
      env: { BENCH_APP_SOURCES: '1' },
    });
  return out;
}

/** Targets: CPU per request over the variant without the step. */
export const TARGETS: Readonly<Record<'off' | 'on', number>> = { off: 1.02, on: 1.15 };

/** Per case: per variant, CPU µs per request side by side and req/s alone, per round. */
export type ObservabilityResults = Map<string, Map<Variant, Array<{ cpuUs: number; rps: number }>>>;

/** A receiver that takes OTLP/HTTP exports and answers 200 (an empty protobuf response). */
async function startReceiver(): Promise<{ url: string; stats: { requests: number; bytes: number }; server: Server }> {
  const stats = { requests: 0, bytes: 0 };
  const server = createServer((req, res) => {
    req.on('data', (c: Buffer) => {
      stats.bytes += c.length;
    });
    req.on('end', () => {
      stats.requests++;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, stats, server };
}

/**
 * Run the benchmark.
 * @returns the figures per round, where the database was, whether pinned, and what the receiver took.
 */
export async function runObservabilityBench(
  options: ObservabilityBenchOptions,
  log: (line: string) => void,
  runtime: ObservabilityRuntime,
): Promise<{ results: ObservabilityResults; where: string; pinned: boolean; received: { requests: number; bytes: number } }> {
  const only = (process.env.BENCH_OBSERVABILITY_CASES ?? '').split(',').filter((k) => k !== '');
  const cases = HTTP_CASES.filter((c) => (only.length > 0 ? only : CASE_KEYS).includes(c.key));
  const database = await benchDatabase(`bench_otel_${process.pid}`, log);
  const receiver = await startReceiver();
  const results: ObservabilityResults = new Map(cases.map((c) => [c.key, new Map(VARIANTS.map((v) => [v, []]))]));
  let pinned = false;
  try {
    let fixture: HttpFixture = await makeHttpFixture(database.url);
    for (let round = 1; round <= options.rounds; round++) {
      const running = new Map<Variant, BenchServer>();
      try {
        // Started in a different order every round: no variant always gets the same slot.
        const order = VARIANTS.map((_, i) => VARIANTS[(i + round - 1) % VARIANTS.length]!);
        for (const v of order) {
          const profile =
            v === (process.env.BENCH_OBSERVABILITY_PROFILE_VARIANT ?? 'on') && process.env.BENCH_OBSERVABILITY_PROFILE
              ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_OBSERVABILITY_PROFILE}`, '--cpu-prof-interval=200']
              : [];
          running.set(
            v,
            await startServer(
              runtime.script,
              { ...fixture.env, ...runtime.env, BENCH_OBSERVABILITY: v, BENCH_OTLP_URL: receiver.url },
              { node: runtime.node, execArgv: [...profile, ...runtime.execArgv] },
            ),
          );
        }
        fixture = await currentCookies(`http://127.0.0.1:${running.get('without')!.port}`, fixture);
        pinned = pinProcesses(
          process.pid,
          [...running.values()].map((s) => s.pid),
        );
        for (const c of cases)
          for (const v of VARIANTS) {
            const port = running.get(v)!.port;
            const probe = c.load(fixture);
            const res = await fetch(`http://127.0.0.1:${port}${probe.path}`, {
              method: probe.method,
              headers: probe.headers,
              ...(probe.body === undefined ? {} : { body: probe.body }),
              redirect: 'manual',
            });
            if (res.status !== c.status) throw new Error(`${v}, ${c.name}: answered ${res.status} instead of ${c.status}`);
            await res.arrayBuffer();
            await runLoad(port, { ...probe, seconds: 1, connections: options.connections });
          }
        for (const c of cases) {
          const alone = new Map<Variant, number>();
          for (const v of VARIANTS) alone.set(v, (await measure(running.get(v)!, c, fixture, options, v)).rps);
          const together = await Promise.all(
            VARIANTS.map(async (v) => [v, await measure(running.get(v)!, c, fixture, options, v)] as const),
          );
          for (const [v, fig] of together)
            results
              .get(c.key)!
              .get(v)!
              .push({ cpuUs: fig.cpuUs, rps: alone.get(v)! });
          const base = together.find(([v]) => v === 'without')![1].cpuUs;
          log(
            `  round ${round}: ${c.name.padEnd(62)} ${together.map(([v, f]) => `${v} ${f.cpuUs.toFixed(1)} µs (${(f.cpuUs / base).toFixed(3)}×)`).join('  ')}`,
          );
        }
      } finally {
        for (const server of running.values()) await server.stop();
      }
    }
  } finally {
    await new Promise<void>((resolve) => receiver.server.close(() => resolve()));
    await database.dispose();
  }
  return { results, where: database.where, pinned, received: receiver.stats };
}

async function measure(
  server: BenchServer,
  c: (typeof HTTP_CASES)[number],
  fixture: HttpFixture,
  options: ObservabilityBenchOptions,
  label: string,
): Promise<{ rps: number; cpuUs: number }> {
  const before = server.cpuMs();
  const r = await runLoad(server.port, { ...c.load(fixture), seconds: options.seconds, connections: options.connections });
  const cpuMs = server.cpuMs() - before;
  const wanted = r.statuses[String(c.status)] ?? 0;
  if (r.errors > 0 || wanted !== r.requests)
    throw new Error(
      `${label}, ${c.name}: ${r.errors} errors and statuses ${JSON.stringify(r.statuses)} under load (expected only ${c.status})`,
    );
  return { rps: r.rps, cpuUs: (cpuMs * 1000) / r.requests };
}

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The Markdown table and verdicts of {@link runObservabilityBench}'s results. */
export function formatObservabilityResults(results: ObservabilityResults): string[] {
  const lines = [
    '| case | without the step | tracing off | tracing on (100 %, OTLP) | on, no stage spans | 10 % sampled | off ÷ without (per round) | on ÷ without (per round) | no stage spans ÷ without | 10 % ÷ without |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const verdicts: Record<Exclude<Variant, 'without'>, number[]> = { off: [], on: [], lean: [], sampled: [] };
  for (const c of HTTP_CASES) {
    const row = results.get(c.key);
    if (row === undefined) continue;
    const base = row.get('without')!;
    const cell = (v: Variant) => {
      const figs = row.get(v)!;
      return `${median(figs.map((f) => f.cpuUs)).toFixed(0)} µs · ${Math.round(median(figs.map((f) => f.rps)))} req/s`;
    };
    const ratio = (v: Exclude<Variant, 'without'>, rounds = true) => {
      const each = row.get(v)!.map((f, i) => f.cpuUs / base[i]!.cpuUs);
      verdicts[v].push(median(each));
      return rounds ? `**${median(each).toFixed(2)}×** (${each.map((r) => r.toFixed(2)).join(', ')})` : `${median(each).toFixed(2)}×`;
    };
    lines.push(
      `| ${c.name} | ${VARIANTS.map(cell).join(' | ')} | ${ratio('off')} | ${ratio('on')} | ${ratio('lean', false)} | ${ratio('sampled', false)} |`,
    );
  }
  for (const v of ['off', 'on'] as const) {
    const worst = Math.max(...verdicts[v]);
    lines.push(
      '',
      `Tracing ${v}: the largest median ratio over the cases is ${worst.toFixed(3)}× (target ≤ ${TARGETS[v].toFixed(2)}×): ${worst <= TARGETS[v] ? 'met' : 'NOT met'}.`,
    );
  }
  return lines;
}
