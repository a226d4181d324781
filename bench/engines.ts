/**
 * Benchmark: the same reference app on PostgreSQL and on MariaDB
 * (docs/benchmarks.md "PostgreSQL and MariaDB"). The app is booted as
 * `bindery serve` boots it (the production build under plain node,
 * `NODE_ENV=production`, its real route groups), once per engine, each on
 * its own database with the same fixture; the cases are the ones of
 * bench/http.ts that write and read rows: `POST /notes` (one INSERT),
 * `PATCH /api/documents/{id}` (the row and its audit entry in one
 * transaction, the old values read with a lock first) and
 * `GET /notes?limit=20` (a keyset page).
 *
 * Each round starts both servers fresh, measures each alone (req/s, p99),
 * then both side by side (loaded at once, on the same CPUs): the verdict
 * figure is the app server's CPU per request side by side (user + system
 * from /proc/<pid>/stat). The database servers' own CPU is not in it: both
 * run on this machine, and their difference shows in req/s alone.
 *
 * Databases: PostgreSQL as bench/http.ts takes it (`DATABASE_URL`, or an
 * embedded server); MariaDB on `MARIADB_URL` (a server URL whose user may
 * create databases), or a throwaway server started for the run
 * (runtime/testing/mysql/mariadb-server.ts, Debian's `mariadb-server-core`).
 */
import { randomBytes } from 'node:crypto';
import { startMariadb } from '../runtime/testing/mysql/mariadb-server.js';
import { createMysqlDatabase, dropMysqlDatabase } from '../runtime/testing/mysql/server.js';
import { HTTP_CASES } from './http.js';
import { currentCookies, makeHttpFixture, type HttpFixture } from './http/fixture.js';
import type { HttpRuntime } from './http/runtimes.js';
import { benchDatabase, type BenchDatabase } from './support/database.js';
import { pinProcesses, runLoad, startServer, type BenchServer } from './support/load.js';

/** The engines compared, in the order of the table. */
export const ENGINES = ['postgres', 'mariadb'] as const;
type Engine = (typeof ENGINES)[number];

/** The cases of bench/http.ts measured on both engines. */
export const ENGINE_CASES = ['create', 'patch', 'list'] as const;

/** One case on one engine: medians over the rounds. */
export interface EngineRow {
  /** Requests per second, the server alone. */
  readonly rps: number;
  /** 99th percentile latency alone, ms. */
  readonly p99: number;
  /** The app server's CPU per request side by side, µs. */
  readonly cpuUs: number;
}

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** A fresh MariaDB database (`utf8mb4_bin`) on `MARIADB_URL` or on a throwaway server. */
async function mariaDatabase(log: (line: string) => void): Promise<BenchDatabase> {
  const external = process.env.MARIADB_URL;
  if (external === undefined) log('Starting a throwaway MariaDB …');
  const server = external === undefined ? await startMariadb() : undefined;
  const serverUrl = external ?? server!.url;
  const name = `bench_engines_${randomBytes(4).toString('hex')}`;
  await createMysqlDatabase(serverUrl, name);
  const url = new URL(serverUrl);
  url.protocol = 'mariadb:';
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    where: external === undefined ? 'a throwaway MariaDB (default settings)' : `MARIADB_URL (database ${name})`,
    async dispose() {
      await dropMysqlDatabase(serverUrl, name);
      await server?.stop();
    },
  };
}

async function measure(server: BenchServer, key: string, f: HttpFixture, seconds: number, connections: number) {
  const c = HTTP_CASES.find((x) => x.key === key)!;
  const before = server.cpuMs();
  const r = await runLoad(server.port, { ...c.load(f), seconds, connections });
  const cpuMs = server.cpuMs() - before;
  if (r.errors > 0 || (r.statuses[String(c.status)] ?? 0) !== r.requests)
    throw new Error(`${c.name}: ${r.errors} errors and statuses ${JSON.stringify(r.statuses)} under load (expected only ${c.status})`);
  return { rps: r.rps, p99: r.p99, cpuUs: (cpuMs * 1000) / r.requests };
}

/**
 * Run the comparison.
 * @param runtime how the app runs (bench/http/runtimes.ts; its `bindery` script).
 * @returns the medians per case and engine, and where each database was.
 */
export async function runEnginesBench(
  options: { readonly seconds: number; readonly rounds: number; readonly connections: number },
  runtime: HttpRuntime,
  log: (line: string) => void,
): Promise<{ results: Map<string, Map<Engine, EngineRow>>; where: Record<Engine, string> }> {
  const databases: Partial<Record<Engine, BenchDatabase>> = {};
  const samples = new Map(ENGINE_CASES.map((k) => [k as string, new Map(ENGINES.map((e) => [e, [] as EngineRow[]]))]));
  try {
    databases.postgres = await benchDatabase(`bench_engines_${process.pid}`, log);
    databases.mariadb = await mariaDatabase(log);
    const fixtures = {} as Record<Engine, HttpFixture>;
    for (const e of ENGINES) fixtures[e] = await makeHttpFixture(databases[e]!.url);
    for (let round = 1; round <= options.rounds; round++) {
      const running = new Map<Engine, BenchServer>();
      try {
        for (const e of ENGINES) {
          running.set(e, await startServer(runtime.scripts.bindery, { ...fixtures[e].env, ...runtime.env }, runtime));
          fixtures[e] = await currentCookies(`http://127.0.0.1:${running.get(e)!.port}`, fixtures[e]);
        }
        pinProcesses(
          process.pid,
          [...running.values()].map((s) => s.pid),
        );
        for (const key of ENGINE_CASES) for (const e of ENGINES) await measure(running.get(e)!, key, fixtures[e], 1, options.connections);
        for (const key of ENGINE_CASES) {
          const alone = new Map<Engine, EngineRow>();
          for (const e of ENGINES) alone.set(e, await measure(running.get(e)!, key, fixtures[e], options.seconds, options.connections));
          const together = await Promise.all(
            ENGINES.map((e) => measure(running.get(e)!, key, fixtures[e], options.seconds, options.connections)),
          );
          ENGINES.forEach((e, i) => {
            const row = { rps: alone.get(e)!.rps, p99: alone.get(e)!.p99, cpuUs: together[i]!.cpuUs };
            samples.get(key)!.get(e)!.push(row);
            log(
              `  round ${round}: ${key.padEnd(7)} ${e.padEnd(9)} ${Math.round(row.rps).toString().padStart(6)} req/s alone, p99 ${row.p99} ms, ${row.cpuUs.toFixed(1)} µs app CPU/request side by side`,
            );
          });
        }
      } finally {
        for (const s of running.values()) await s.stop();
      }
    }
  } finally {
    for (const d of Object.values(databases)) await d?.dispose();
  }
  const results = new Map<string, Map<Engine, EngineRow>>();
  for (const [key, byEngine] of samples)
    results.set(
      key,
      new Map(
        [...byEngine].map(([e, rows]) => [
          e,
          { rps: median(rows.map((r) => r.rps)), p99: median(rows.map((r) => r.p99)), cpuUs: median(rows.map((r) => r.cpuUs)) },
        ]),
      ),
    );
  return { results, where: { postgres: databases.postgres!.where, mariadb: databases.mariadb!.where } };
}

/** The Markdown table of {@link runEnginesBench}'s results. */
export function formatEnginesResults(results: Map<string, Map<Engine, EngineRow>>): string[] {
  const lines = [
    '| case | PostgreSQL: req/s alone · p99 | MariaDB: req/s alone · p99 | app CPU/request side by side, PostgreSQL → MariaDB |',
    '|---|---:|---:|---:|',
  ];
  for (const key of ENGINE_CASES) {
    const row = results.get(key)!;
    const c = HTTP_CASES.find((x) => x.key === key)!;
    const cell = (r: EngineRow) => `${Math.round(r.rps)} · ${r.p99} ms`;
    const pg = row.get('postgres')!;
    const maria = row.get('mariadb')!;
    lines.push(`| ${c.name} | ${cell(pg)} | ${cell(maria)} | ${pg.cpuUs.toFixed(0)} µs → ${maria.cpuUs.toFixed(0)} µs |`);
  }
  return lines;
}
