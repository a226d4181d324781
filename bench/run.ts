/**
 * `npm run bench`: run the benchmarks and print their figures as a Markdown
 * table (copy them into docs/benchmarks.md with the machine line).
 *
 * Environment: BENCH_SECONDS (per measurement, default 5), BENCH_ROUNDS (default 5 for notes and http, 3 for audit and generator),
 * BENCH_CONNECTIONS (default 50; 10 for http), BENCH_GENERATOR_SIZES (routes, default 50,200,1000), BENCH_GENERATOR_DIST=1 (run dist/, after `npm run build`),
 * BENCH_GENERATOR_NODE (the node that runs the generator), BENCH_NODES (further node binaries for the http and cli suites, e.g. `.node/24/bin/node`),
 * BENCH_HTTP_RUNTIMES (`built`, the production build under plain node — default —, and/or `tsx`), BENCH_CLI_RUNS (default 10). Pass suite names to run only some:
 * `npm run bench -- notes`. The `realworld` suite measures examples/realworld's `GET /api/articles?limit=20`. `BENCH_HTTP_CASES` (comma-separated keys of
 * bench/http.ts, e.g. `create,invalid`) narrows the http suite. The
 * `observability` suite compares the reference app without its
 * observability() step, with it and tracing off, and with tracing on. The
 * `engines` suite runs the reference app on PostgreSQL and on MariaDB side by side
 * (MARIADB_URL, or a throwaway server). The
 * `export` suite streams two exports at once of 1,000 documents of 100 KB
 * and of 200,000 small ones (BENCH_EXPORT_DOCS, BENCH_EXPORT_SMALL).
 */
import { cpus, loadavg, totalmem } from 'node:os';
import { median, runNotesBench, VERDICT_SERVER } from './notes-binding.js';
import { runAuditBench } from './audit-writes.js';
import { runGeneratorBench } from './generator.js';
import { formatHttpResults, runHttpBench } from './http.js';
import { httpRuntimes } from './http/runtimes.js';
import { formatObservabilityResults, observabilityRuntimes, runObservabilityBench } from './observability.js';
import { benchNodes, formatCliResults, runCliBench } from './cli.js';
import { runExportBench } from './export.js';
import { formatEnginesResults, runEnginesBench } from './engines.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const auditRounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const wanted = new Set(process.argv.slice(2));
const runs = (name: string) => wanted.size === 0 || wanted.has(name);

const log = (line: string) => process.stdout.write(`${line}\n`);
// Leave through process.exit on Ctrl-C / SIGTERM, so the servers started are stopped (bench/support/load.ts).
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
log(
  `Machine: ${cpus()[0]?.model ?? 'unknown CPU'} × ${cpus().length}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${process.platform}`,
);

if (runs('notes')) {
  log('POST /notes — binding + validation, handler without database');
  log(
    `Load: autocannon, ${connections} connections, ${rounds} rounds of fresh processes, ${seconds} s per measurement; medians; loopback.`,
  );
  const { rows, pinned } = await runNotesBench({ seconds, rounds, connections }, log);
  log(
    pinned
      ? 'Servers pinned to CPU 1, the load generator to CPU 0.'
      : 'Not pinned (one CPU, or no taskset): servers and load share the CPUs.',
  );
  const yardstick = rows.find((r) => r.yardstick)!;
  log(
    '\n| server | req/s alone | p50 ms | p99 ms | server CPU µs/request | CPU vs yardstick | throughput side by side with the yardstick |',
  );
  log('|---|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    const side = r.yardstick ? '1.00×' : `${median(r.sideBySide).toFixed(2)}×`;
    log(
      `| ${r.name}${r.yardstick ? ' (yardstick)' : ''} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${r.cpuUsPerRequest.toFixed(1)} | ${(r.cpuUsPerRequest / yardstick.cpuUsPerRequest).toFixed(2)}× | ${side} |`,
    );
  }
  const ours = rows.find((r) => r.name === VERDICT_SERVER)!;
  const ratio = median(ours.sideBySide);
  log(
    `\nTarget ≥ 0.95× the hand-written Fastify route's throughput (${VERDICT_SERVER}, side by side, median of ${ours.sideBySide.length} rounds): ${ratio >= 0.95 ? 'met' : 'NOT met'} (${ratio.toFixed(2)}×).\n`,
  );
}

if (runs('engines')) {
  const engineConnections = Number(process.env.BENCH_CONNECTIONS ?? 10);
  const [runtime] = await httpRuntimes([process.execPath]);
  log(
    `\nThe reference app on PostgreSQL and on MariaDB (${runtime!.label}; ${engineConnections} connections, ${rounds} rounds, ${seconds} s per measurement)`,
  );
  const { results, where } = await runEnginesBench({ seconds, rounds, connections: engineConnections }, runtime!, log);
  log(`\n${formatEnginesResults(results).join('\n')}\n\nPostgreSQL: ${where.postgres}. MariaDB: ${where.mariadb}.\n`);
}

if (runs('audit')) {
  log('Audit data layer vs plain Kysely (single-row update; bulk update)');
  const { rows, where } = await runAuditBench(
    {
      rounds: auditRounds,
      updates: Number(process.env.BENCH_AUDIT_UPDATES ?? 3000),
      bulkRows: Number(process.env.BENCH_AUDIT_ROWS ?? 100_000),
    },
    log,
  );
  log(`\nDatabase: ${where}.\n`);
  log('| case | plain Kysely | audited | ratio | target |');
  log('|---|---:|---:|---:|---:|');
  for (const r of rows)
    log(
      `| ${r.name} | ${r.plain.toFixed(0)} ${r.unit} | ${r.audited.toFixed(0)} ${r.unit} | ${r.ratio.toFixed(2)}× | ≤ ${r.target}× ${r.ratio <= r.target ? 'met' : 'NOT met'} |`,
    );
  log('');
}

if (runs('generator')) {
  const sizes = (process.env.BENCH_GENERATOR_SIZES ?? '50,200,1000').split(',').map(Number);
  const generatorRounds = Number(process.env.BENCH_ROUNDS ?? 3);
  log(`bindery generate on synthetic schemas (one resource per five routes), fresh processes, medians of ${generatorRounds}`);
  const dist = process.env.BENCH_GENERATOR_DIST === '1';
  log(dist ? 'The CLI runs the compiled dist/ (BINDERY_DIST=1).' : 'The CLI runs the TypeScript sources through tsx.');
  const { rows } = await runGeneratorBench({ sizes, rounds: generatorRounds, dist }, log);
  log('\n| routes | resources | run | wall s | CPU s | peak RSS MB | highest peak RSS MB |');
  log('|---:|---:|---|---:|---:|---:|---:|');
  const mb = (value: number): string => (Number.isNaN(value) ? '—' : String(Math.round(value)));
  for (const r of rows)
    log(
      `| ${r.routes} | ${r.resources} | ${r.run} | ${(r.wallMs / 1000).toFixed(2)} | ${(r.cpuMs / 1000).toFixed(2)} | ${mb(r.maxRssMb)} | ${mb(r.highestRssMb)} |`,
    );
  log('');
}

if (runs('http')) {
  const httpConnections = Number(process.env.BENCH_CONNECTIONS ?? 10);
  const only = new Set((process.env.BENCH_HTTP_CASES ?? '').split(',').filter((k) => k !== ''));
  log(
    'Request cost as users run it: the reference app as bindery serve runs it (production, real groups, execution context, PostgreSQL) vs hand-written servers doing the same work',
  );
  log(
    `Load: autocannon, ${httpConnections} connections, ${rounds} rounds of fresh processes, ${seconds} s per measurement; medians; loopback.`,
  );
  for (const runtime of await httpRuntimes(benchNodes())) {
    log(
      `\n${runtime.label} (${new Date().toISOString().slice(0, 10)}; load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')})`,
    );
    const { results, where, pinned } = await runHttpBench({ seconds, rounds, connections: httpConnections }, log, only, runtime);
    log(
      `Database: ${where}. ${pinned ? 'Servers pinned to CPU 1, the load generator to CPU 0.' : 'Not pinned.'} Runtime: ${runtime.label}, for every server. Load average after: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}.`,
    );
    log('Cells: server CPU time per request (user + system), side by side · requests per second alone.\n');
    for (const line of formatHttpResults(results)) log(line);
    log('');
  }
}

if (runs('realworld')) {
  const rwConnections = Number(process.env.BENCH_CONNECTIONS ?? 10);
  log(
    'GET /api/articles?limit=20 of examples/realworld (20 articles with authors, tags, favorites; signed in) vs the same route by hand on Fastify + pg',
  );
  log(
    `Load: autocannon, ${rwConnections} connections, ${rounds} rounds of fresh processes, ${seconds} s per measurement; medians; loopback.`,
  );
  // The example's own bench (examples/realworld/bench/articles.ts), outside this program: it types its own generated services.
  const suite = new URL('../examples/realworld/bench/articles.ts', import.meta.url).href;
  const { runRealworldBench } = (await import(suite)) as {
    runRealworldBench(
      o: { seconds: number; rounds: number; connections: number },
      l: typeof log,
    ): Promise<{
      rows: { name: string; cpuUs: number; rps: number; p99: number }[];
      ratios: number[];
      ratio: number;
      where: string;
      pinned: boolean;
    }>;
  };
  const { rows, ratios, ratio, where, pinned } = await runRealworldBench({ seconds, rounds, connections: rwConnections }, log);
  log(`Database: ${where}. ${pinned ? 'Servers pinned to CPU 1, the load generator to CPU 0.' : 'Not pinned.'}\n`);
  log('| server | CPU µs/request (side by side) | req/s alone | p99 ms alone |');
  log('|---|---:|---:|---:|');
  for (const r of rows) log(`| ${r.name} | ${r.cpuUs.toFixed(0)} | ${Math.round(r.rps)} | ${r.p99} |`);
  log(
    `\nbindery ÷ Fastify (CPU per request, side by side): ${ratio.toFixed(2)}× (rounds: ${ratios.map((r) => r.toFixed(2)).join(', ')})\n`,
  );
}

if (runs('observability')) {
  const obsConnections = Number(process.env.BENCH_CONNECTIONS ?? 10);
  log('What observability costs per request: the reference app without observability(), with it and tracing off, with tracing on');
  log(
    `Load: autocannon, ${obsConnections} connections each, ${rounds} rounds of fresh processes, ${seconds} s per measurement; medians; loopback.`,
  );
  for (const runtime of await observabilityRuntimes(benchNodes())) {
    log(
      `\n${runtime.label} (${new Date().toISOString().slice(0, 16)}; load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')})`,
    );
    const { results, where, pinned, received } = await runObservabilityBench(
      { seconds, rounds, connections: obsConnections },
      log,
      runtime,
    );
    log(
      `Database: ${where}. ${pinned ? 'Servers pinned to CPU 1, the load generator and the OTLP receiver to CPU 0.' : 'Not pinned.'} Runtime: ${runtime.label}. The receiver took ${received.requests} OTLP exports (${Math.round(received.bytes / 1024)} KiB). Load average after: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}.`,
    );
    log('Cells: server CPU time per request (user + system), side by side · requests per second alone.\n');
    for (const line of formatObservabilityResults(results)) log(line);
    log('');
  }
}

if (runs('export')) {
  log("GET /api/documents/export: two exports at once, the server's memory and GET /health/live meanwhile");
  const { rows, where } = await runExportBench(log);
  log(`\nDatabase: ${where}.\n`);
  log('| case | one export | both read in | server RSS before → peak | /health/live slowest (median) | server loop delay | longest work |');
  log('|---|---:|---:|---:|---:|---:|---:|');
  for (const r of rows)
    log(
      `| ${r.name} | ${(r.bytes / 1e6).toFixed(1)} MB | ${(r.ms / 1000).toFixed(2)} s | ${r.rssBeforeMb.toFixed(0)} → ${r.rssPeakMb.toFixed(0)} MB | ${r.healthMaxMs.toFixed(0)} ms (${r.healthMedianMs.toFixed(1)} ms) | ${r.loopDelayMs.toFixed(0)} ms | ${r.loopCpuMs.toFixed(0)} ms |`,
    );
  log('');
}

if (runs('cli')) {
  const cliRuns = Number(process.env.BENCH_CLI_RUNS ?? 10);
  log(
    `bindery CLI in a project made by \`bindery new\` (development mode), fresh processes, commands in turn, ${cliRuns} runs each; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  const { rows, where } = await runCliBench({ runs: cliRuns, nodes: benchNodes() }, log);
  log(
    `\nDatabase: ${where}. Load average after: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}.\n`,
  );
  for (const line of formatCliResults(rows)) log(line);
  log('');
}

if (runs('scale'))
  await (await import('./scale-run.js')).printScaleBench({ seconds, rounds: Number(process.env.BENCH_ROUNDS ?? 3), connections }, log);
