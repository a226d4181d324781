/**
 * Benchmark: `GET /api/documents/export` at scale (docs/http.md "Unbounded
 * answers"; docs/benchmarks.md "Export"). The reference app runs as
 * `bindery serve` runs it (bench/servers/bindery-app.ts, production
 * settings) on a fresh database; two cases, each two exports at once:
 *
 * 1. 1,000 documents of 100 KB (100 MB per export);
 * 2. 200,000 small documents (a title and a short body).
 *
 * While the exports run, this process asks `GET /health/live` again and
 * again (one at a time) and notes the slowest answer, and samples the
 * server's RSS (`/proc/<pid>/status`) every 20 ms; the server watches its
 * own event loop (bench/servers/loop-report.ts). Reported: the exports'
 * time and size, the server's RSS before and at its peak, the slowest and
 * median `/health/live`, and the server's longest loop delay and longest
 * stretch of work (CPU time between two ticks of a 5 ms timer). `BENCH_EXPORT_DOCS` and `BENCH_EXPORT_SMALL`
 * change the two counts (defaults 1000 and 200000).
 */
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { startApp } from 'bindery/app';
import type { ApiTokens } from 'bindery/auth/tokens';
import app from '../app/main.js';
import { productionEnv } from './http/fixture.js';
import { benchDatabase } from './support/database.js';
import { startServer } from './support/load.js';

export interface ExportBenchRow {
  readonly name: string;
  /** Bytes of one export. */
  readonly bytes: number;
  /** Wall time until both exports were read, ms. */
  readonly ms: number;
  /** The server's RSS before the exports and at its peak while they ran, MB. */
  readonly rssBeforeMb: number;
  readonly rssPeakMb: number;
  /** The slowest and the median `GET /health/live` while they ran, ms. */
  readonly healthMaxMs: number;
  readonly healthMedianMs: number;
  readonly healthCount: number;
  /** Inside the server (bench/servers/loop-report.ts): the longest event-loop delay, and the longest stretch of its own work, ms. */
  readonly loopDelayMs: number;
  readonly loopCpuMs: number;
}

interface Owner {
  readonly bearer: string;
  readonly name: string;
}

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

/** RSS of process `pid` in MB (Linux), NaN elsewhere. */
function rssMb(pid: number): number {
  try {
    const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return line ? Number(line[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** Migrate, make two owners with a token each, and their documents. */
async function seed(env: Record<string, string>, large: number, small: number): Promise<Owner[]> {
  const running = await startApp(app, { env: { ...env, HTTP_ADDR: '127.0.0.1:0' }, migrate: true, handleSignals: false, out: () => {} });
  try {
    const db = running.db;
    const owners: Owner[] = [];
    for (const [i, name, count, body] of [
      [1, `${large} documents of 100 KB`, large, "repeat('x', 100000)"],
      [2, `${small} small documents`, small, "'A short body of the document number ' || g"],
    ] as const) {
      await db
        .insertInto('users')
        .values({ id: i, name: `Owner ${i}`, email: `owner${i}@example.test`, password: '!unusable' })
        .execute();
      await sql
        .raw(
          `insert into documents (owner_id, slug, title, body) select ${i}, 'doc-${i}-' || g, 'Title ' || g, ${body} from generate_series(1, ${count}) g`,
        )
        .execute(db);
      const { plain } = await (running.services.apiTokens as ApiTokens).create(String(i), { name: 'bench', abilities: ['documents:read'] });
      owners.push({ bearer: `Bearer ${plain}`, name });
    }
    await sql`vacuum analyze documents`.execute(db);
    return owners;
  } finally {
    await running.close();
  }
}

/** Read one export to its end; resolves with its size in bytes. */
async function readExport(base: string, bearer: string): Promise<number> {
  const res = await fetch(`${base}/api/documents/export`, { headers: { accept: 'application/json', authorization: bearer } });
  if (res.status !== 200) throw new Error(`export answered ${res.status}: ${await res.text()}`);
  let bytes = 0;
  for await (const chunk of res.body!) bytes += (chunk as Uint8Array).length;
  return bytes;
}

/** Ask the server for its loop report (SIGUSR2) and read it. */
async function loopReport(pid: number, file: string): Promise<{ delayMs: number; cpuMs: number }> {
  rmSync(file, { force: true });
  process.kill(pid, 'SIGUSR2');
  for (let i = 0; i < 200; i++) {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as { delayMs: number; cpuMs: number };
    } catch {
      await new Promise((r) => setTimeout(r, 10));
    }
  }
  return { delayMs: Number.NaN, cpuMs: Number.NaN };
}

async function measureCase(base: string, pid: number, owner: Owner, reportFile: string): Promise<ExportBenchRow> {
  await loopReport(pid, reportFile);
  const rssBeforeMb = rssMb(pid);
  let rssPeakMb = rssBeforeMb;
  let running = true;
  const sampler = (async () => {
    while (running) {
      rssPeakMb = Math.max(rssPeakMb, rssMb(pid));
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const health: number[] = [];
  const prober = (async () => {
    while (running) {
      const t0 = performance.now();
      const res = await fetch(`${base}/health/live`);
      await res.arrayBuffer();
      health.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  const t0 = performance.now();
  const sizes = await Promise.all([readExport(base, owner.bearer), readExport(base, owner.bearer)]).finally(() => {
    running = false;
  });
  const ms = performance.now() - t0;
  await Promise.all([sampler, prober]);
  const loop = await loopReport(pid, reportFile);
  return {
    name: owner.name,
    bytes: sizes[0]!,
    ms,
    rssBeforeMb,
    rssPeakMb,
    healthMaxMs: Math.max(...health),
    healthMedianMs: median(health),
    healthCount: health.length,
    loopDelayMs: loop.delayMs,
    loopCpuMs: loop.cpuMs,
  };
}

/** Run the export benchmark; one row per case. */
export async function runExportBench(log: (line: string) => void): Promise<{ rows: ExportBenchRow[]; where: string }> {
  const large = Number(process.env.BENCH_EXPORT_DOCS ?? 1000);
  const small = Number(process.env.BENCH_EXPORT_SMALL ?? 200_000);
  const database = await benchDatabase(`bench_export_${process.pid}`, log);
  try {
    const env = productionEnv(database.url);
    log(`Seeding ${large} documents of 100 KB and ${small} small ones …`);
    const owners = await seed(env, large, small);
    const reportFile = join(tmpdir(), `bindery-bench-export-${process.pid}.json`);
    const server = await startServer(fileURLToPath(new URL('./servers/bindery-app.ts', import.meta.url)), {
      ...env,
      BENCH_LOOP_REPORT: reportFile,
    });
    try {
      const base = `http://127.0.0.1:${server.port}`;
      for (let i = 0; i < 20; i++) await (await fetch(`${base}/health/live`)).arrayBuffer();
      const rows: ExportBenchRow[] = [];
      for (const owner of owners) {
        const row = await measureCase(base, server.pid, owner, reportFile);
        log(
          `  ${row.name}: 2 × ${(row.bytes / 1e6).toFixed(1)} MB in ${row.ms.toFixed(0)} ms; RSS ${row.rssBeforeMb.toFixed(0)} → ${row.rssPeakMb.toFixed(0)} MB; /health/live max ${row.healthMaxMs.toFixed(0)} ms, median ${row.healthMedianMs.toFixed(1)} ms (${row.healthCount} probes); server loop: delay ${row.loopDelayMs.toFixed(0)} ms, longest work ${row.loopCpuMs.toFixed(0)} ms`,
        );
        rows.push(row);
      }
      return { rows, where: database.where };
    } finally {
      await server.stop();
      rmSync(reportFile, { force: true });
    }
  } finally {
    await database.dispose();
  }
}
