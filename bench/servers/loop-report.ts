/**
 * For bench servers: with `BENCH_LOOP_REPORT=<file>`, watch this process's
 * event loop and, on each SIGUSR2, write what was seen since the last one
 * to the file as JSON — `{ "delayMs": …, "cpuMs": … }`: the longest
 * wall-clock gap between two ticks of a 5 ms timer (less the interval), and
 * the longest CPU time of the main thread between two ticks (what the
 * server's own work took; a busy machine delays the timer without it) —
 * then start over. The runner sends SIGUSR2 before and after a measurement.
 */
import { writeFileSync } from 'node:fs';

const INTERVAL_MS = 5;

/** Start the report when `BENCH_LOOP_REPORT` names a file; otherwise do nothing. */
export function reportLoopOnSignal(): void {
  const file = process.env.BENCH_LOOP_REPORT;
  if (file === undefined || file === '') return;
  const threadCpu = (process as { threadCpuUsage?: () => NodeJS.CpuUsage }).threadCpuUsage?.bind(process);
  const cpu = (): number => {
    const u = threadCpu?.() ?? process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  let lastCpu = cpu();
  let lastWall = performance.now();
  let maxCpu = 0;
  let maxGap = 0;
  setInterval(() => {
    const c = cpu();
    const w = performance.now();
    maxCpu = Math.max(maxCpu, c - lastCpu);
    maxGap = Math.max(maxGap, w - lastWall - INTERVAL_MS);
    lastCpu = c;
    lastWall = w;
  }, INTERVAL_MS).unref();
  process.on('SIGUSR2', () => {
    writeFileSync(file, JSON.stringify({ delayMs: Math.max(0, maxGap), cpuMs: maxCpu }));
    maxCpu = 0;
    maxGap = 0;
  });
}
