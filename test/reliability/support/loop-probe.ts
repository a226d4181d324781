/**
 * A timer probe of the event loop (docs/reliability.md "Work per request"):
 * a 5 ms interval timer that notes, between two of its ticks, the wall-clock
 * gap and the CPU time this thread spent. The longest CPU stretch is the
 * longest piece of work that kept the loop from the timer — what a busy
 * machine cannot inflate (a process waiting for a core spends no CPU) —
 * and the longest gap is the delay a client saw. The server must run in
 * this thread.
 */

/** What the probe saw between `start()` and `stop()`. */
export interface LoopBlocking {
  /** The longest CPU time of this thread between two ticks, ms. */
  readonly cpuMs: number;
  /** The longest wall-clock gap between two ticks, less the interval, ms. */
  readonly delayMs: number;
}

const INTERVAL_MS = 5;

/** CPU time of this thread in µs (of the whole process where Node has no per-thread figure: Node 22). */
function cpuMicros(): number {
  const usage = threadCpuUsage?.() ?? process.cpuUsage();
  return usage.user + usage.system;
}

/** `process.threadCpuUsage` (Node 23.9 and later; not in the Node 20 types), bound, or undefined. */
const threadCpuUsage = (process as { threadCpuUsage?: () => NodeJS.CpuUsage }).threadCpuUsage?.bind(process);

/** A probe: `start()`, run the work, `stop()` for what it saw. */
export class LoopProbe {
  #timer: NodeJS.Timeout | undefined;
  #cpu = 0;
  #wall = 0;
  #maxCpu = 0;
  #maxGap = 0;

  start(): void {
    this.#cpu = cpuMicros();
    this.#wall = performance.now();
    this.#maxCpu = 0;
    this.#maxGap = 0;
    this.#timer = setInterval(() => {
      const cpu = cpuMicros();
      const wall = performance.now();
      this.#maxCpu = Math.max(this.#maxCpu, (cpu - this.#cpu) / 1000);
      this.#maxGap = Math.max(this.#maxGap, wall - this.#wall - INTERVAL_MS);
      this.#cpu = cpu;
      this.#wall = wall;
    }, INTERVAL_MS);
  }

  /** Stop, after one more tick (a stretch still running when the work ended is seen too). */
  async stop(): Promise<LoopBlocking> {
    await new Promise((r) => setTimeout(r, INTERVAL_MS * 2));
    clearInterval(this.#timer);
    return { cpuMs: this.#maxCpu, delayMs: Math.max(0, this.#maxGap) };
  }
}
