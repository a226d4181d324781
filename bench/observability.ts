/**
 * Benchmark: what observability costs per request (docs/observability.md
 * "Cost"; docs/benchmarks.md). The reference app in three variants side by
 * side (bench/servers/bindery-observed.ts): without the `observability()`
 * step, with it and tracing off, with tracing on at 100 % sampling and at
 * 10 %, exporting OTLP/HTTP protobuf to a receiver this process runs.
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
import { fileURLToPath } from 'node:url';
import { HTTP_CASES } from './http.js';
import { currentCookies, makeHttpFixture, type HttpFixture } from './http/fixture.js';
import { benchDatabase } from './support/database.js';
import { pinProcesses, runLoad, startServer, type BenchServer } from './support/load.js';

export interface ObservabilityBenchOptions {
  readonly seconds: number;
  readonly rounds: number;
  readonly connections: number;
}

/** The variants, in the order of the table. */
export const VARIANTS = ['without', 'off', 'on', 'sampled'] as const;
type Variant = (typeof VARIANTS)[number];

/** The cases measured: the HTTP suite's, bindery's side. */
const CASE_KEYS = ['create', 'invalid', 'list', 'token', 'guest'];

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
): Promise<{ results: ObservabilityResults; where: string; pinned: boolean; received: { requests: number; bytes: number } }> {
  const script = fileURLToPath(new URL('./servers/bindery-observed.ts', import.meta.url));
  const cases = HTTP_CASES.filter((c) => CASE_KEYS.includes(c.key));
  const database = await benchDatabase(`bench_otel_${process.pid}`, log);
  const receiver = await startReceiver();
  const results: ObservabilityResults = new Map(cases.map((c) => [c.key, new Map(VARIANTS.map((v) => [v, []]))]));
  let pinned = false;
  try {
    let fixture: HttpFixture = await makeHttpFixture(database.url);
    for (let round = 1; round <= options.rounds; round++) {
      const running = new Map<Variant, BenchServer>();
      try {
        for (const v of VARIANTS)
          running.set(v, await startServer(script, { ...fixture.env, BENCH_OBSERVABILITY: v, BENCH_OTLP_URL: receiver.url }));
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
    '| case | without the step | tracing off | tracing on (100 %, OTLP) | 10 % sampled | off ÷ without (per round) | on ÷ without (per round) | 10 % ÷ without |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const verdicts: Record<'off' | 'on' | 'sampled', number[]> = { off: [], on: [], sampled: [] };
  for (const c of HTTP_CASES) {
    const row = results.get(c.key);
    if (row === undefined) continue;
    const base = row.get('without')!;
    const cell = (v: Variant) => {
      const figs = row.get(v)!;
      return `${median(figs.map((f) => f.cpuUs)).toFixed(0)} µs · ${Math.round(median(figs.map((f) => f.rps)))} req/s`;
    };
    const ratio = (v: 'off' | 'on' | 'sampled') => {
      const rounds = row.get(v)!.map((f, i) => f.cpuUs / base[i]!.cpuUs);
      verdicts[v].push(median(rounds));
      return `**${median(rounds).toFixed(3)}×** (${rounds.map((r) => r.toFixed(2)).join(', ')})`;
    };
    lines.push(
      `| ${c.name} | ${cell('without')} | ${cell('off')} | ${cell('on')} | ${cell('sampled')} | ${ratio('off')} | ${ratio('on')} | ${ratio('sampled')} |`,
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
