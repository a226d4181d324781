/**
 * A/B tool for the cost of observability (docs/benchmarks.md "Observability:
 * where the cost goes"): a few variants of the reference app's production
 * build, each with its own settings, loaded one after the other (alone, in
 * alternating order) or all at once on one CPU (`--together`), every round;
 * it prints each variant's server CPU time per request (user and system) and
 * its per-round ratio to the first variant.
 *
 *   node --conditions=bindery-source --import tsx bench/observability-ab.ts [--together] <case> <rounds> <seconds> <spec>...
 *
 * `<case>`: a key of bench/http.ts (`invalid`, `create`, `list`, …). A spec
 * is `name=variant[,KEY:value…]`: a variant of bench/servers/bindery-observed.mjs
 * (`without`, `off`, `on`, `lean`, `sampled`) and environment settings for
 * that server — e.g. `unsampled=on,BENCH_OTEL_SAMPLER:always_off`,
 * `batch2048=on,OTEL_BSP_MAX_EXPORT_BATCH_SIZE:2048,OTEL_BSP_MAX_QUEUE_SIZE:8192`,
 * `nometrics=on,OTEL_METRICS_EXPORTER:none`; `DIR:/path` runs the server of
 * another checkout (built) of bindery, to compare code before and after a
 * change on the same minute. Needs DATABASE_URL (or the bench's embedded
 * PostgreSQL) and `npm run build`.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { HTTP_CASES } from './http.js';
import { currentCookies, makeHttpFixture } from './http/fixture.js';
import { benchDatabase } from './support/database.js';
import { type BenchServer, pinProcesses, runLoad, startServer } from './support/load.js';

const args = process.argv.slice(2);
const together = args[0] === '--together';
const [caseKey, roundsArg, secondsArg, ...specs] = together ? args.slice(1) : args;
const benchCase = HTTP_CASES.find((c) => c.key === caseKey);
if (benchCase === undefined || specs.length === 0)
  throw new Error('usage: observability-ab.ts [--together] <case> <rounds> <seconds> <name=variant[,KEY:value…]>…');
const rounds = Number(roundsArg);
const seconds = Number(secondsArg);

/** User and system CPU time of a process so far, in milliseconds. */
function cpuOf(pid: number): { user: number; system: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { user: Number(fields[11]) * 10, system: Number(fields[12]) * 10 };
}

// A receiver that takes the OTLP exports and answers 200, as the observability suite's.
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end());
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const otlpUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
const database = await benchDatabase(`bench_obs_ab_${process.pid}`, (line) => process.stdout.write(`${line}\n`));
let fixture = await makeHttpFixture(database.url);

interface Variant {
  readonly name: string;
  readonly server: BenchServer;
  /** Per round: user µs, system µs per request. */
  readonly rounds: Array<{ user: number; system: number }>;
}
const variants: Variant[] = [];
try {
  for (const spec of specs) {
    const eq = spec.indexOf('=');
    const [variant, ...settings] = spec.slice(eq + 1).split(',');
    const env = Object.fromEntries(settings.map((s) => [s.slice(0, s.indexOf(':')), s.slice(s.indexOf(':') + 1)]));
    const script =
      env['DIR'] === undefined
        ? fileURLToPath(new URL('./servers/bindery-observed.mjs', import.meta.url))
        : `${env['DIR']}/bench/servers/bindery-observed.mjs`;
    const server = await startServer(
      script,
      { ...fixture.env, NODE_ENV: 'production', BENCH_OBSERVABILITY: variant!, BENCH_OTLP_URL: otlpUrl, ...env },
      { node: process.execPath, execArgv: [] },
    );
    variants.push({ name: spec.slice(0, eq), server, rounds: [] });
  }
  fixture = await currentCookies(`http://127.0.0.1:${variants[0]!.server.port}`, fixture);
  pinProcesses(
    process.pid,
    variants.map((v) => v.server.pid),
  );
  const load = benchCase.load(fixture);
  // Warm up: the first seconds of a server are its compiler's.
  for (const v of variants) await runLoad(v.server.port, { ...load, seconds: 5, connections: 10 });
  const measure = async (vs: readonly Variant[]) => {
    const before = vs.map((v) => cpuOf(v.server.pid));
    const results = await Promise.all(vs.map((v) => runLoad(v.server.port, { ...load, seconds, connections: 10 })));
    vs.forEach((v, i) => {
      const after = cpuOf(v.server.pid);
      const requests = results[i]!.requests;
      v.rounds.push({
        user: ((after.user - before[i]!.user) * 1000) / requests,
        system: ((after.system - before[i]!.system) * 1000) / requests,
      });
    });
  };
  for (let round = 0; round < rounds; round++) {
    if (together) await measure(variants);
    else for (const v of round % 2 === 0 ? variants : [...variants].reverse()) await measure([v]);
  }
  const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const total = (r: { user: number; system: number }) => r.user + r.system;
  const base = variants[0]!.rounds;
  process.stdout.write(`${together ? 'together on one CPU' : 'alone, alternating'}: ${benchCase.name}, ${rounds} × ${seconds} s\n`);
  for (const v of variants) {
    const ratios = v.rounds.map((r, i) => total(r) / total(base[i]!));
    process.stdout.write(
      `${v.name.padEnd(12)} ${median(v.rounds.map(total)).toFixed(1)} µs/request (user ${median(v.rounds.map((r) => r.user)).toFixed(1)}, system ${median(v.rounds.map((r) => r.system)).toFixed(1)})  ÷ first: ${median(ratios).toFixed(3)}× (${ratios.map((r) => r.toFixed(2)).join(' ')})\n`,
    );
  }
} finally {
  for (const v of variants) await v.server.stop();
  receiver.close();
  await database.dispose();
}
