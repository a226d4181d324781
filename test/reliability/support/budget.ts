/**
 * What one request costs the process it is served by (docs/reliability.md
 * "Work per request"): CPU time from `process.cpuUsage`, the longest
 * event-loop delay from `perf_hooks.monitorEventLoopDelay`, and how far RSS
 * rose while it ran (from just before it was sent, its body already built).
 * The server must run in this process.
 */
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

/** The cost of one request. */
export interface Cost {
  /** User + system CPU time, ms. */
  readonly cpuMs: number;
  /** The longest event-loop delay seen while it ran, ms (timer resolution 5 ms, subtracted). */
  readonly loopDelayMs: number;
  /** RSS after it, above RSS just before it, MB. */
  readonly rssGrowthMb: number;
}

/** The limits every request must keep (docs/reliability.md). */
export const BUDGET: Cost = { cpuMs: 100, loopDelayMs: 100, rssGrowthMb: 64 };

const RESOLUTION_MS = 5;

/** A meter: `measure(fn)` runs one request and says what it cost; `close()` stops the loop monitor. */
export class CostMeter {
  readonly #histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });

  constructor() {
    this.#histogram.enable();
  }

  async measure<T>(fn: () => Promise<T>): Promise<{ value: T; cost: Cost }> {
    // Let the loop settle, so the delay seen is this request's.
    await new Promise((r) => setImmediate(r));
    const rss = process.memoryUsage.rss();
    this.#histogram.reset();
    const cpu = process.cpuUsage();
    const value = await fn();
    const used = process.cpuUsage(cpu);
    // One more turn: a timer due while the request ran records its delay now.
    await new Promise((r) => setTimeout(r, RESOLUTION_MS * 2));
    const delay = Math.max(0, this.#histogram.max / 1e6 - RESOLUTION_MS);
    return {
      value,
      cost: {
        cpuMs: (used.user + used.system) / 1000,
        loopDelayMs: this.#histogram.count === 0 ? 0 : delay,
        rssGrowthMb: (process.memoryUsage.rss() - rss) / 2 ** 20,
      },
    };
  }

  close(): void {
    this.#histogram.disable();
  }
}

/** Whether `cost` keeps {@link BUDGET}. */
export function withinBudget(cost: Cost): boolean {
  return cost.cpuMs < BUDGET.cpuMs && cost.loopDelayMs < BUDGET.loopDelayMs && cost.rssGrowthMb < BUDGET.rssGrowthMb;
}
