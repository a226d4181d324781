/**
 * `npm run bench -- scale`: run the scale-out benchmark (bench/scale-out.ts)
 * and print its Markdown table (copy it into docs/benchmarks.md "Scale-out").
 */
import { runScaleBench, type ScaleBenchOptions } from './scale-out.js';

/** Print the scale-out figures: req/s, latency, and the gain of the second instance. */
export async function printScaleBench(options: ScaleBenchOptions, log: (line: string) => void): Promise<void> {
  log('Scale-out — the reference app as 1 and 2 `bindery serve` processes behind a round-robin front (Node cluster)');
  log(
    `Load: autocannon, ${options.connections} connections, ${options.rounds} rounds, ${options.seconds} s per measurement; medians; loopback.`,
  );
  const { rows, where } = await runScaleBench(options, log);
  log(`\nDatabase: ${where}.\n`);
  log('| request | instances | req/s | p50 ms | p99 ms | vs 1 instance | failed responses |');
  log('|---|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    const one = rows.find((o) => o.request === r.request && o.instances === 1)!;
    log(
      `| ${r.request} | ${r.instances} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${(r.rps / one.rps).toFixed(2)}× | ${r.failures} |`,
    );
  }
  log('');
}
