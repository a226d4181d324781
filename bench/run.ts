/**
 * `npm run bench`: run the benchmarks and print their figures as a Markdown
 * table (copy them into docs/benchmarks.md with the machine line).
 *
 * Environment: BENCH_SECONDS (per round, default 8), BENCH_ROUNDS (default 3),
 * BENCH_CONNECTIONS (default 50). Pass suite names to run only some:
 * `npm run bench -- notes`.
 */
import { cpus, totalmem } from 'node:os';
import { runNotesBench } from './notes-binding.js';
import { runAuditBench } from './audit-writes.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const wanted = new Set(process.argv.slice(2));
const runs = (name: string) => wanted.size === 0 || wanted.has(name);

const log = (line: string) => process.stdout.write(`${line}\n`);
log(`Machine: ${cpus()[0]?.model ?? 'unknown CPU'} × ${cpus().length}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${process.platform}`);
log(`Load: autocannon, ${connections} connections, ${rounds} rounds × ${seconds} s per server (median), loopback.\n`);

if (runs('notes')) {
  log('POST /notes — binding + validation, handler without database');
  const rows = await runNotesBench({ seconds, rounds, connections }, log);
  const yardstick = rows.find((r) => r.name.startsWith('Fastify'))!.rps;
  log('\n| server | req/s | p50 ms | p99 ms | vs hand-written Fastify |');
  log('|---|---:|---:|---:|---:|');
  for (const r of rows) log(`| ${r.name} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${(r.rps / yardstick).toFixed(2)}× |`);
  const ours = rows.find((r) => r.name.startsWith('bindery'))!.rps / yardstick;
  log(`\nTarget ≥ 0.95× the hand-written Fastify route: ${ours >= 0.95 ? 'met' : 'NOT met'} (${ours.toFixed(2)}×).\n`);
}

if (runs('audit')) {
  log('Audit data layer vs plain Kysely (single-row update; bulk update)');
  const { rows, where } = await runAuditBench({ rounds, updates: Number(process.env.BENCH_AUDIT_UPDATES ?? 3000), bulkRows: Number(process.env.BENCH_AUDIT_ROWS ?? 100_000) }, log);
  log(`\nDatabase: ${where}.\n`);
  log('| case | plain Kysely | audited | ratio | target |');
  log('|---|---:|---:|---:|---:|');
  for (const r of rows) log(`| ${r.name} | ${r.plain.toFixed(0)} ${r.unit} | ${r.audited.toFixed(0)} ${r.unit} | ${r.ratio.toFixed(2)}× | ≤ ${r.target}× ${r.ratio <= r.target ? 'met' : 'NOT met'} |`);
  log('');
}
