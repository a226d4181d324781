/**
 * Password checks queued per client address (docs/auth.md "Throttling"):
 * one address runs at most `width` checks at once, the rest of its
 * attempts wait in its own lane, so a flood from one address can hold only
 * part of the hashing capacity and a login from elsewhere finds a free slot.
 */

/** The result of {@link AddressLanes.run} when the address already has `maxWaiting` attempts waiting. */
export const LANE_FULL: unique symbol = Symbol('lane full');

interface Lane {
  running: number;
  readonly waiting: Array<() => void>;
}

/** Per-key concurrency limit with a bounded queue per key; idle keys hold no memory. */
export class AddressLanes {
  readonly #width: number;
  readonly #maxWaiting: number;
  readonly #lanes = new Map<string, Lane>();

  /**
   * @param width tasks of one key running at once (at least 1).
   * @param maxWaiting tasks of one key allowed to wait; more are refused with {@link LANE_FULL}.
   * @throws {RangeError} for a width under 1 or a negative `maxWaiting`.
   */
  constructor(width: number, maxWaiting: number) {
    if (!Number.isInteger(width) || width < 1) throw new RangeError(`AddressLanes needs a width of at least 1, got ${width}.`);
    if (!Number.isInteger(maxWaiting) || maxWaiting < 0)
      throw new RangeError(`AddressLanes needs maxWaiting of at least 0, got ${maxWaiting}.`);
    this.#width = width;
    this.#maxWaiting = maxWaiting;
  }

  /** Keys with running or waiting tasks (for tests and metrics). */
  get activeKeys(): number {
    return this.#lanes.size;
  }

  /**
   * Run `task` in `key`'s lane once fewer than `width` of its tasks run.
   * @returns the task's result, or {@link LANE_FULL} (without running it) when `maxWaiting` tasks of `key` already wait.
   */
  async run<T>(key: string, task: () => Promise<T>): Promise<T | typeof LANE_FULL> {
    let lane = this.#lanes.get(key);
    if (lane === undefined) {
      lane = { running: 0, waiting: [] };
      this.#lanes.set(key, lane);
    }
    if (lane.running >= this.#width) {
      if (lane.waiting.length >= this.#maxWaiting) return LANE_FULL;
      await new Promise<void>((resolve) => lane!.waiting.push(resolve));
    } else {
      lane.running++;
    }
    try {
      return await task();
    } finally {
      const next = lane.waiting.shift();
      if (next !== undefined)
        next(); // the slot passes to the next waiter
      else if (--lane.running === 0) this.#lanes.delete(key);
    }
  }
}
