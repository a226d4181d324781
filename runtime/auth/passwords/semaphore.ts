/**
 * A counting semaphore: at most `permits` tasks run at once, the others
 * wait in arrival order (docs/spec.md 8: "concurrent hashes at most the number
 * of CPUs").
 */
export class Semaphore {
  #free: number;
  readonly #waiting: Array<() => void> = [];

  /** @param permits how many tasks may run at once (at least 1). */
  constructor(permits: number) {
    if (!Number.isInteger(permits) || permits < 1) throw new RangeError(`A semaphore needs at least one permit, got ${permits}.`);
    this.#free = permits;
  }

  /** Tasks waiting for a permit. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /** Run `task` once a permit is free; the permit is released when it settles. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#free > 0) this.#free--;
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = this.#waiting.shift();
      if (next !== undefined) next();
      else this.#free++;
    }
  }
}
