/**
 * Benchmark: throughput per added app instance. The reference app runs as 1
 * and as 2 `bindery serve` processes behind a round-robin front (Node's
 * `cluster` module, bench/servers/scale-front.ts) on one PostgreSQL; the
 * load (autocannon, in this process) is the same for both. Two requests:
 * `GET /health/live` (the app's own cost: no database) and `GET /notes` as
 * JSON (a guest page reading the database). docs/benchmarks.md "Scale-out"
 * has the figures and what limits them.
 *
 * Every round starts the front and its instances fresh (1 then 2, or 2 then
 * 1 in alternate rounds), warms them up, then measures each request; the
 * table gives the medians over the rounds.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { generateAppKey } from '../runtime/config/app-key.js';
import { benchDatabase } from './support/database.js';
import { runLoad, startServer, type LoadFigures } from './support/load.js';

export interface ScaleBenchOptions {
  readonly seconds: number;
  readonly rounds: number;
  readonly connections: number;
}

export interface ScaleBenchRow {
  readonly request: string;
  readonly instances: number;
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  /** Responses other than 2xx, and errors, over every round (both should be 0). */
  readonly failures: number;
}

const FRONT = fileURLToPath(new URL('./servers/scale-front.ts', import.meta.url));
const BIN = fileURLToPath(new URL('../bin/bindery.mjs', import.meta.url));
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const REQUESTS = [
  { request: 'GET /health/live', path: '/health/live' },
  { request: 'GET /notes (JSON, database read)', path: '/notes' },
] as const;

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** `bindery migrate` as a release step would run it. */
async function migrate(env: Record<string, string>): Promise<void> {
  const child = spawn(process.execPath, [BIN, 'migrate'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const [code] = await once(child, 'exit');
  if (code !== 0) throw new Error(`bindery migrate exited with code ${code}`);
}

/** Run the scale-out benchmark; one row per request and instance count. */
export async function runScaleBench(
  options: ScaleBenchOptions,
  log: (line: string) => void,
): Promise<{ rows: ScaleBenchRow[]; where: string }> {
  const database = await benchDatabase(`bench_scale_${process.pid}`, log);
  const env: Record<string, string> = {
    DATABASE_URL: database.url,
    APP_ENV: 'production',
    APP_URL: 'https://bench.example.test',
    APP_KEY: generateAppKey(),
    LOG_LEVEL: 'silent',
    MAIL_DRIVER: 'outbox',
    MAILPROVIDER_WEBHOOK_USER: 'bench',
    MAILPROVIDER_WEBHOOK_PASSWORD: 'bench-webhook-password',
  };
  try {
    await migrate(env);
    const figures = new Map<string, LoadFigures[]>();
    for (let round = 1; round <= options.rounds; round++) {
      // Alternate the order, so a drift of the machine's load during a round does not favour one side.
      for (const instances of round % 2 === 1 ? [1, 2] : [2, 1]) {
        const front = await startServer(FRONT, { ...env, BENCH_INSTANCES: String(instances) });
        try {
          for (const r of REQUESTS) {
            const load = {
              connections: options.connections,
              method: 'GET' as const,
              path: r.path,
              headers: { accept: 'application/json' },
            };
            await runLoad(front.port, { ...load, seconds: 1 });
            const f = await runLoad(front.port, { ...load, seconds: options.seconds });
            const key = `${r.request}|${instances}`;
            figures.set(key, [...(figures.get(key) ?? []), f]);
            log(`round ${round}, ${instances} instance${instances === 1 ? '' : 's'}, ${r.request}: ${Math.round(f.rps)} req/s`);
          }
        } finally {
          await front.stop();
        }
      }
    }
    const rows: ScaleBenchRow[] = [];
    for (const r of REQUESTS) {
      for (const instances of [1, 2]) {
        const fs = figures.get(`${r.request}|${instances}`)!;
        rows.push({
          request: r.request,
          instances,
          rps: median(fs.map((f) => f.rps)),
          p50: median(fs.map((f) => f.p50)),
          p99: median(fs.map((f) => f.p99)),
          failures: fs.reduce((n, f) => n + f.non2xx + f.errors, 0),
        });
      }
    }
    return {
      rows,
      where: `${database.where}; ${cpus().length} CPUs shared by the front, the instances, PostgreSQL and the load generator`,
    };
  } finally {
    await database.dispose();
  }
}
